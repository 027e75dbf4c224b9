import { formatDistanceStrict } from "date-fns";
import { displayValue, TREND_DESCRIPTIONS } from "@/lib/cgm";
import type { LatestReading as Reading } from "@/lib/dashboard/latest";
import { TrendArrow } from "./TrendArrow";

/** The latest value, large, with unit, trend and its age; 39/401 read "LOW"/"HIGH", never numbers. */
export function LatestReading({ reading, nowMs }: { reading: Reading; nowMs: number }) {
  const { egv, unit, rateUnit } = reading;
  const text = displayValue(egv.value, unit, egv.status);
  const sentinel = text === "LOW" || text === "HIGH";
  return (
    <section
      aria-labelledby="latest-heading"
      className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2
        id="latest-heading"
        className="text-sm font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400"
      >
        Latest glucose
      </h2>
      <p className="mt-2 flex items-baseline gap-3" data-testid="latest-glucose">
        <span className="text-6xl font-semibold tabular-nums">{text}</span>
        {!sentinel && <span className="text-xl text-slate-600 dark:text-slate-300">{unit}</span>}
        <TrendArrow trend={egv.trend} className="text-5xl" />
      </p>
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        {sentinel ? `${text === "LOW" ? "Below" : "Above"} the sensor's measuring range · ` : ""}
        {TREND_DESCRIPTIONS[egv.trend ?? "none"]}
        {egv.trendRate !== null ? ` (${egv.trendRate} ${rateUnit})` : ""}
      </p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Read {formatDistanceStrict(reading.readAtMs, nowMs)} ago ({egv.displayTime.replace("T", " ")}, the
        receiver&apos;s local time)
      </p>
    </section>
  );
}
