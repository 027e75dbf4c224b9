import { TargetBand } from "@/components/charts/TargetBand";
import { formatDayText } from "@/lib/records/format";
import type { AgpReport } from "@/lib/reports/agp/agp-model";

/**
 * One small chart per day of the report's last 14 days, midnight to midnight on the patient's
 * clock, with the target range shaded: the days behind the AGP's percentiles. Server-drawn SVG.
 */
const W = 140;
const H = 70;

export function DailyProfiles({ report }: { report: AgpReport }) {
  const { axis, target } = report;
  const y = (v: number) =>
    ((axis.max - Math.min(axis.max, Math.max(axis.min, v))) / (axis.max - axis.min)) * H;
  const x = (minute: number) => (minute / 1440) * W;
  return (
    <ol
      className="daily-profiles grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-7 print:grid-cols-7"
      data-testid="daily-profiles"
    >
      {report.dailyProfiles.map((d) => {
        const label = formatDayText(d.day, false);
        return (
          <li
            key={d.day}
            className="rounded border border-slate-200 p-1 dark:border-slate-700"
            data-day={d.day}
          >
            <p className="text-xs font-medium">{label}</p>
            <svg
              viewBox={`0 0 ${W} ${H}`}
              className="h-auto w-full text-slate-700 dark:text-slate-300"
              role="img"
              aria-label={d.readings === 0 ? `${label}: no readings` : `${label}: ${d.readings} readings`}
            >
              <rect x={0} y={0} width={W} height={H} fill="none" stroke="currentColor" strokeOpacity={0.25} />
              <TargetBand width={W} top={y(target.high)} bottom={y(target.low)} opacity={0.15} />
              {[360, 720, 1080].map((m) => (
                <line key={m} x1={x(m)} x2={x(m)} y1={0} y2={H} stroke="currentColor" strokeOpacity={0.15} />
              ))}
              {d.lines.map((line) => (
                <polyline
                  key={line[0]![0]}
                  points={line.map(([m, v]) => `${x(m).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}
                  fill="none"
                  stroke="#0072B2"
                  strokeWidth={1.2}
                  className="dark:stroke-sky-300"
                />
              ))}
              {d.readings === 0 && (
                <text x={W / 2} y={H / 2 + 4} textAnchor="middle" fontSize={11} fill="currentColor">
                  No data
                </text>
              )}
            </svg>
          </li>
        );
      })}
    </ol>
  );
}
