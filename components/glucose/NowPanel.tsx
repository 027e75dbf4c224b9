"use client";

import { useEffect, useState } from "react";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { rateUnitFor } from "@/lib/cgm/units";
import type { LatestView } from "@/lib/dashboard/overview-model";
import { PATIENT, type Viewer, wordsFor } from "@/lib/records/viewer";
import { agedFreshness, type DataFreshness, describeAge, formatDisplayTime } from "@/lib/trace";
import { TrendArrow } from "./TrendArrow";

/**
 * Glucose now: the newest reading the service has released, large, with its trend, and an honest
 * statement of its age. The service releases readings late, so this is not a live monitor; the
 * warning appears only when the reading is older than that delay can explain, and the reading then
 * stops looking current: its age first, the value greyed, no trend. The age goes on counting while
 * the page stays open, so a sensor that stops uploading is noticed, and greyed, without a reload.
 */
export function NowPanel({
  latest,
  freshness: fromServer,
  unit,
  viewer = PATIENT,
}: {
  latest: LatestView;
  freshness: DataFreshness;
  unit: GlucoseUnit;
  viewer?: Viewer;
}) {
  const { your, clock } = wordsFor(viewer);
  const { freshness, ageing } = useLiveFreshness(fromServer);
  const sentinel = latest.sentinel !== null;
  const delay = freshness.expectedDelayMinutes;
  return (
    <section
      aria-labelledby="now-heading"
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2
        id="now-heading"
        className="text-sm font-medium uppercase tracking-wide text-slate-700 dark:text-slate-300"
      >
        Latest glucose
      </h2>
      {freshness.stale ? (
        // Older than the service's delay can explain: the age comes first, the value is greyed and
        // smaller, and no trend is drawn, so it cannot be read as glucose now.
        <p
          className="mt-2 flex flex-wrap items-baseline gap-x-2 text-lg font-semibold"
          data-testid="latest-glucose"
          data-stale="true"
        >
          <span>Last reading {describeAge(freshness.ageMinutes)}:</span>{" "}
          <span className="whitespace-nowrap text-slate-500 dark:text-slate-400">
            <span className="text-4xl font-semibold tabular-nums" data-testid="latest-value">
              {latest.text}
            </span>
            {!sentinel && <span className="font-normal"> {unit}</span>}
          </span>
        </p>
      ) : (
        <p
          className="mt-2 flex flex-wrap items-baseline gap-x-3"
          data-testid="latest-glucose"
          data-stale="false"
        >
          <span className="text-6xl font-semibold tabular-nums" data-testid="latest-value">
            {latest.text}
          </span>
          {!sentinel && <span className="text-xl text-slate-700 dark:text-slate-300">{unit}</span>}
          <TrendArrow trend={latest.trend} className="text-5xl" />
        </p>
      )}
      <p className="mt-2 text-slate-800 dark:text-slate-200" data-testid="latest-trend">
        {sentinel ? `${latest.sentinel === "low" ? "Below" : "Above"} the sensor's measuring range · ` : ""}
        {freshness.stale
          ? "No trend: the reading is too old to tell where glucose is heading now."
          : latest.trendDescription + rateText(latest.rate, unit)}
      </p>
      {/* data-ageing marks that the age now counts on in this browser (after hydration), which a
          test must wait for before it moves the clock. */}
      <p
        className="mt-1 text-sm text-slate-700 dark:text-slate-300"
        data-testid="latest-age"
        data-ageing={ageing ? "true" : "false"}
      >
        {freshness.stale ? "Taken" : `Read ${describeAge(freshness.ageMinutes)} ·`}{" "}
        {`${formatDisplayTime(latest.displayTime)} on ${clock}`}
      </p>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        {delay > 0
          ? `The glucose service releases readings about ${describeDelay(delay)} after they are taken, so this is not a live value.`
          : "Readings appear here as soon as the glucose service receives them."}
      </p>
      {freshness.stale && (
        <p
          role="status"
          data-testid="stale-warning"
          className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          No newer reading has arrived for {describeAge(freshness.ageMinutes).replace(" ago", "")}, longer
          than the service&apos;s usual delay. Check that {your} sensor and phone or receiver are uploading.
        </p>
      )}
    </section>
  );
}

const AGE_TICK_MS = 30_000;

/**
 * The server's freshness, aged by the time this page has been open since it arrived (measured with
 * performance.now(), so a wrong clock on the device plays no part). Until the first effect runs,
 * and whenever a new freshness arrives, the server's own is shown, so hydration matches.
 */
function useLiveFreshness(freshness: DataFreshness): { freshness: DataFreshness; ageing: boolean } {
  const [clock, setClock] = useState<{ of: DataFreshness; since: number; now: number } | null>(null);
  useEffect(() => {
    const since = performance.now();
    setClock({ of: freshness, since, now: since });
    const timer = setInterval(() => setClock({ of: freshness, since, now: performance.now() }), AGE_TICK_MS);
    return () => clearInterval(timer);
  }, [freshness]);
  return clock?.of === freshness
    ? { freshness: agedFreshness(freshness, clock.now - clock.since), ageing: true }
    : { freshness, ageing: false };
}

function rateText(rate: number | null, unit: GlucoseUnit): string {
  return rate === null ? "" : ` (${rate > 0 ? "+" : ""}${rate} ${rateUnitFor(unit)})`;
}

function describeDelay(minutes: number): string {
  if (minutes < 60) return `${minutes} minutes`;
  const hours = minutes / 60;
  return Number.isInteger(hours) ? `${hours} hour${hours === 1 ? "" : "s"}` : `${hours.toFixed(1)} hours`;
}
