import { displayValue, withGlucoseUnit } from "@/lib/cgm/glucose-text";
import { convertGlucose, type GlucoseUnit } from "@/lib/cgm/units";
import { MEASURING_RANGE_MGDL } from "@/lib/cgm/values";
import type { DayCoverage, DaySummary as Summary } from "@/lib/dashboard/day-model";
import { IN_RANGE_MAX_MGDL, LOW_BELOW_MGDL } from "@/lib/metrics/constants";

const inUnit = (mgdl: number, unit: GlucoseUnit) => displayValue(convertGlucose(mgdl, "mg/dL", unit), unit);

/** A glucose text with its unit, except LOW and HIGH, which are not numbers. */
const glucose = (text: string | null, unit: GlucoseUnit) =>
  text === null ? "—" : withGlucoseUnit(text, unit);

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-800">
      <dt className="text-sm text-slate-700 dark:text-slate-300">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums">{value}</dd>
      {detail && <dd className="text-xs text-slate-700 dark:text-slate-300">{detail}</dd>}
    </div>
  );
}

/** The day's numbers: how complete it is, mean and extremes, and how many readings were low or high. */
export function DaySummary({
  summary,
  coverage,
  unit,
}: {
  summary: Summary;
  coverage: DayCoverage;
  unit: GlucoseUnit;
}) {
  const below40 = `below ${inUnit(MEASURING_RANGE_MGDL.min, unit)} ${unit}`;
  const above400 = `above ${inUnit(MEASURING_RANGE_MGDL.max, unit)} ${unit}`;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="day-summary">
      <Stat
        label="Readings"
        value={String(summary.readings)}
        detail={`of ${coverage.expected} expected${coverage.missing > 0 ? `, ${coverage.missing} missing` : ", none missing"}`}
      />
      <Stat label="Mean" value={glucose(summary.mean, unit)} />
      <Stat label="Lowest" value={glucose(summary.lowest, unit)} />
      <Stat label="Highest" value={glucose(summary.highest, unit)} />
      <Stat
        label={`Below ${inUnit(LOW_BELOW_MGDL, unit)} ${unit}`}
        value={`${summary.lows} ${summary.lows === 1 ? "reading" : "readings"}`}
        detail={summary.lowSentinels > 0 ? `${summary.lowSentinels} of them LOW (${below40})` : undefined}
      />
      <Stat
        label={`Above ${inUnit(IN_RANGE_MAX_MGDL, unit)} ${unit}`}
        value={`${summary.highs} ${summary.highs === 1 ? "reading" : "readings"}`}
        detail={summary.highSentinels > 0 ? `${summary.highSentinels} of them HIGH (${above400})` : undefined}
      />
    </dl>
  );
}
