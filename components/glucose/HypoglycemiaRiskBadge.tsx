import type { HypoglycemiaRisk } from "@/lib/cgm/schemas";

const STYLES: Record<HypoglycemiaRisk, { label: string; className: string }> = {
  minimal: {
    label: "Minimal",
    className: "border-emerald-700 bg-emerald-50 text-emerald-950 dark:bg-emerald-950 dark:text-emerald-100",
  },
  low: { label: "Low", className: "border-sky-700 bg-sky-50 text-sky-950 dark:bg-sky-950 dark:text-sky-100" },
  moderate: {
    label: "Moderate",
    className: "border-amber-700 bg-amber-50 text-amber-950 dark:bg-amber-950 dark:text-amber-100",
  },
  high: {
    label: "High",
    className: "border-red-800 bg-red-50 text-red-950 dark:bg-red-950 dark:text-red-100",
  },
};

/**
 * The hypoglycemia risk category, as a labelled badge (the word carries the meaning; the colour
 * only repeats it): the service's (API v2), or the dashboard's own with the service's method (API
 * v3, which gives none). When there is none, the minimum-data rule of the service's statistics
 * (spec section 2.6) is stated, so the patient knows why and what would change it.
 */
export function HypoglycemiaRiskBadge({
  risk,
  by = "service",
}: {
  risk: HypoglycemiaRisk | null;
  by?: "service" | "dashboard";
}) {
  if (risk === null)
    return (
      <div data-testid="hypo-risk" data-risk="none" data-by={by}>
        <p className="font-medium">Not enough sensor data to estimate the risk.</p>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {by === "service" ? "The service estimates it" : "It is estimated, as the service does,"} only when
          the sensor was worn enough: over a period shorter than 20 days, on at least 12 days with the sensor
          in use at least 66% of the day; over 20 days or more, on at least 60% of the days.
        </p>
      </div>
    );
  const style = STYLES[risk];
  return (
    <p data-testid="hypo-risk" data-risk={risk} data-by={by}>
      <span
        className={`inline-flex items-center rounded-full border-2 px-3 py-1 text-base font-semibold ${style.className}`}
      >
        {style.label} risk
      </span>
      <span className="sr-only"> of hypoglycemia</span>
    </p>
  );
}
