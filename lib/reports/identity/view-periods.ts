import { parseDateTime } from "@/lib/cgm/datetime";
import { type Window, windowOf } from "@/lib/cgm/window";
import { dayOf } from "../period/patient-days";
import { namedPeriodDays, windowDayCount } from "../period/period-days";
import type { ReportIdentityInput } from "./identity";

/**
 * What each printable view names as its period in the identity lines, and the systemTime window
 * whose devices it names: small pure mappings from what the view already holds, so a page adds
 * no read of its own for them (the devices read is the one call: identity-load.ts).
 */
export interface ViewPeriod {
  window: Window;
  period: ReportIdentityInput["period"];
}

type Bounds = { startDate: string; endDate: string; patientDays?: { firstDay: string; lastDay: string } };

const windowOfBounds = (b: Bounds): Window =>
  windowOf(parseDateTime(b.startDate) ?? 0, parseDateTime(b.endDate) ?? 0);

/** A report over one period (statistics by time of day): its days as period-days.ts names them. */
export function reportViewPeriod(period: Window & Pick<Bounds, "patientDays">): ViewPeriod {
  return { window: period, period: namedPeriodDays(period) };
}

/** A comparison: the recent period, with the earlier one it is compared with; devices of both. */
export function comparisonViewPeriod(c: { earlier: Bounds; recent: Bounds }): ViewPeriod {
  const recent = windowOfBounds(c.recent);
  const earlier = windowOfBounds(c.earlier);
  const named = namedPeriodDays({ ...recent, patientDays: c.recent.patientDays });
  const before = namedPeriodDays({ ...earlier, patientDays: c.earlier.patientDays });
  return {
    window: windowOf(earlier.startMs, recent.endMs),
    period: { ...named, earlier: { firstDay: before.firstDay, lastDay: before.lastDay, days: before.days } },
  };
}

/** The daily view: its one day on the receiver's clock; devices of the window it read. */
export function dayViewPeriod(day: string, window: Window): ViewPeriod {
  return { window, period: { firstDay: day, lastDay: day, days: 1, clock: "receiver" } };
}

/**
 * The overview's summary: N×24 hours up to the newest reading, named by the receiver's days its
 * ends fall on (the newest reading's clock offset, its displayTime − its own systemTime, moves
 * both ends; not − the service's data end, which the loaded readings may stop short of).
 */
export function overviewViewPeriod(o: {
  summary: { startMs: number; endMs: number; days: number };
  latest: { displayTime: string; t: number } | null;
}): ViewPeriod {
  const window = windowOf(o.summary.startMs, o.summary.endMs);
  const latestMs = o.latest ? parseDateTime(o.latest.displayTime) : null;
  const offsetMs = latestMs === null || !o.latest ? null : latestMs - o.latest.t;
  return {
    window,
    period: {
      firstDay: offsetMs === null ? null : dayOf(o.summary.startMs + offsetMs),
      lastDay: latestMs === null ? null : dayOf(latestMs),
      days: o.summary.days || windowDayCount(o.summary.startMs, o.summary.endMs),
      clock: "receiver",
    },
  };
}
