import { parseTargetGroup, type TargetGroup } from "@/lib/metrics/targets";
import { type PeriodRequest, parsePeriodRequest, REPORT_DEFAULT_DAYS } from "./period";

/**
 * The AGP page's query: the period (`days`, or `startDate`/`endDate` as the service writes them,
 * or the date form's `startDay`/`endDay`, read as whole days of systemTime) and the population
 * whose targets the metrics panel shows (`targets`: a one-off look at another group's goals;
 * without it, the patient's group as the view resolves it, lib/preferences/target-group.ts).
 */
export interface AgpQuery {
  period: PeriodRequest;
  /** The group the query asks for; null: the view's own (the patient's or the clinic's choice). */
  population: TargetGroup | null;
}

/** No default group: a link without `targets` shows the patient's own, whatever it is. */
export const AGP_DEFAULTS = { days: String(REPORT_DEFAULT_DAYS) } as const;

const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

export function parseAgpQuery(
  get: (name: string) => string | undefined,
): { ok: true; value: AgpQuery } | { ok: false; message: string } {
  const asked = get("targets");
  const targets = asked === undefined ? null : parseTargetGroup(asked);
  if (asked !== undefined && targets === null) {
    return { ok: false, message: 'targets must be "standard", "olderHighRisk" or "pregnancy"' };
  }
  const startDay = get("startDay");
  const endDay = get("endDay");
  let read = get;
  if (startDay !== undefined || endDay !== undefined) {
    if (!startDay || !endDay || !DAY_SHAPE.test(startDay) || !DAY_SHAPE.test(endDay)) {
      return { ok: false, message: "give both a first and a last day" };
    }
    if (startDay > endDay) return { ok: false, message: "the first day must not be after the last day" };
    const dates: Record<string, string> = {
      startDate: `${startDay}T00:00:00`,
      endDate: `${endDay}T23:59:59`,
    };
    read = (name) => dates[name] ?? get(name);
  }
  const period = parsePeriodRequest(read);
  if (!period.ok) return period;
  return { ok: true, value: { period: period.value, population: targets } };
}

/** The query that asks for `query` again: for links that change one choice and for the PDF. */
export function agpQueryParams(query: AgpQuery): Record<string, string> {
  const out: Record<string, string> = query.population ? { targets: query.population } : {};
  if (query.period.kind === "days") out.days = String(query.period.days);
  else {
    out.startDate = query.period.period.startDate;
    out.endDate = query.period.period.endDate;
  }
  return out;
}
