import { mgdlRangeText } from "@/lib/cgm/glucose-text";
import type { GlucoseUnit } from "@/lib/cgm/units";
import type { OurSummary, ServiceSummary } from "@/lib/dashboard/overview-model";
import { TIGHT_RANGE_MAX_MGDL, TIGHT_RANGE_MIN_MGDL } from "@/lib/metrics/constants";
import { percentText } from "@/lib/metrics/goals";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { formatPercent } from "@/lib/trace";
import { judgeBands } from "@/lib/trace/goal-text";

const dash = "—";
const pct = (v: number | null | undefined) => (v === null || v === undefined ? dash : formatPercent(v));
const num = (v: number | null | undefined, digits = 0) =>
  v === null || v === undefined ? dash : v.toFixed(digits);

/**
 * Our numbers, computed from every reading with the definitions of lib/metrics, beside the
 * service's own v2 statistics for the same window (asked with the consensus bounds 54/70/180).
 * The two should agree; where they differ the reader sees both, not a silent choice. With API v3
 * the service computes no statistics (`serviceGivesStatistics` false): ours alone, and the table
 * says why, rather than a column of the service's that would only be ours again. Below 480 px
 * each measure stacks over its labelled values (stack-narrow, app/globals.css).
 */
export function StatisticsComparison({
  ours,
  service,
  serviceGivesStatistics = true,
  unit,
}: {
  ours: OurSummary;
  service: ServiceSummary | null;
  serviceGivesStatistics?: boolean;
  unit: GlucoseUnit;
}) {
  const tir = ours.timeInRanges;
  // The service is asked on the consensus edges, so our shares are on them too: rounded together
  // (they sum to 100%, "above 180" is the sum of its shown parts, and a share under a goal is not
  // rounded onto it). A table that compares two sources shows a decimal, in both columns alike:
  // whole numbers would set 8.5% (ours, rounded with its bands) as "8%" beside the service's "9%".
  const judged = tir ? judgeBands(TARGET_PRESETS.standard, tir, ours.cv, unit, 1) : null;
  const decimals = judged?.decimals ?? 1;
  const share = (v: number | null | undefined) =>
    v === null || v === undefined ? dash : percentText(v, decimals);
  const above180 = judged?.goals.find((g) => g.metric === "timeAbove180")?.valueText ?? dash;
  const valueDigits = unit === "mg/dL" ? 0 : 1;
  const rows: Array<[string, string, string]> = [
    [
      `Below ${unit === "mg/dL" ? "54" : "3.0"} ${unit}`,
      judged?.bandText.veryLow ?? dash,
      share(service?.percentUrgentLow),
    ],
    [
      `${unit === "mg/dL" ? "54–69" : "3.0–3.8"} ${unit}`,
      judged?.bandText.low ?? dash,
      share(service?.percentBelowRange),
    ],
    [
      `In range ${unit === "mg/dL" ? "70–180" : "3.9–10.0"} ${unit}`,
      judged?.bandText.inRange ?? dash,
      share(service?.percentWithinRange),
    ],
    // Time in tight range (2023 consensus): the service reports no such share.
    [
      `In tight range ${mgdlRangeText(TIGHT_RANGE_MIN_MGDL, TIGHT_RANGE_MAX_MGDL, unit)}`,
      share(ours.timeInTightRange),
      dash,
    ],
    [`Above ${unit === "mg/dL" ? "180" : "10.0"} ${unit}`, above180, share(service?.percentAboveRange)],
    [`Mean glucose (${unit})`, num(ours.mean, valueDigits), num(service?.mean, valueDigits)],
    [`Standard deviation (${unit})`, num(ours.sd, valueDigits), num(service?.sd, valueDigits)],
    ["Coefficient of variation", pct(ours.cv), pct(service?.cv)],
    [
      "GMI (estimated A1C)",
      ours.gmi === null ? dash : `${ours.gmi.toFixed(1)}%`,
      service?.gmi == null ? dash : `${service.gmi.toFixed(1)}%`,
    ],
    ["Sensor use", pct(ours.sensorActivePercent), pct(service?.utilizationPercent)],
    ["Readings", String(ours.nValues), service ? String(service.nValues) : dash],
  ];
  return (
    <div className="overflow-x-auto">
      <table
        className="stack-narrow w-full text-left text-sm"
        data-testid="statistics-comparison"
        data-service={serviceGivesStatistics ? "yes" : "no"}
      >
        <caption className="sr-only">
          {serviceGivesStatistics
            ? "Summary statistics computed by this dashboard and by the glucose service"
            : "Summary statistics computed by this dashboard"}
        </caption>
        <thead>
          <tr className="border-b border-slate-300 dark:border-slate-700">
            <th scope="col" className="py-2 pr-3 font-medium">
              Measure
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              This dashboard
            </th>
            {serviceGivesStatistics && (
              <th scope="col" className="py-2 text-right font-medium">
                Glucose service
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, a, b]) => (
            <tr key={label} className="border-b border-slate-200 last:border-0 dark:border-slate-800">
              <th scope="row" className="py-1.5 pr-3 font-normal">
                {label}
              </th>
              <td data-label="This dashboard" className="py-1.5 pr-3 text-right tabular-nums">
                {a}
              </td>
              {serviceGivesStatistics && (
                <td data-label="Glucose service" className="py-1.5 text-right tabular-nums">
                  {b}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {!serviceGivesStatistics && (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300" data-testid="statistics-by-dashboard">
          Computed by this dashboard from every reading. The glucose service&apos;s current interface (API v3)
          gives no statistics of its own to compare them with.
        </p>
      )}
    </div>
  );
}
