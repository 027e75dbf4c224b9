import { AGP_HALF_WINDOW_MINUTES, AGP_MIN_READINGS, AGP_STEP_MINUTES } from "@/lib/metrics/agp";

/**
 * The methods note every report and export carries, so that its numbers can be reproduced: what
 * each metric is, where its definition comes from, and how gaps and the sentinels were treated.
 * One text, shown on pages (components/reports/MethodsNote.tsx), printed in the PDF and written
 * into exports as methods.txt. Each entry restates the definition in the module its comment names;
 * a change to a definition there must change the wording here. The reader is given the published
 * sources only: a report is filed in a health record, where the app's file names mean nothing.
 */
export interface MethodsEntry {
  term: string;
  definition: string;
  source: string;
}

export const METHODS_ENTRIES: readonly MethodsEntry[] = [
  {
    term: "Readings",
    definition:
      "Every EGV the service returned for the period (v2, whose value is the smoothed value when one exists; v3's is the same), windowed and ordered by systemTime (UTC); time of day and days use displayTime, the patient's receiver clock.",
    // Restates lib/reports/period/readings.ts.
    source: "Service specification, sections 2.1 and 3",
  },
  {
    term: "LOW and HIGH",
    definition:
      "The service's values 39 (below 40 mg/dL) and 401 (above 400 mg/dL) enter every calculation as 39 and 401 mg/dL, also when the data is in mmol/L; they are shown as LOW and HIGH, never as numbers.",
    // Restates lib/cgm/values.ts.
    source: "Service specification, section 2.1",
  },
  {
    term: "Gaps",
    definition:
      "Missing readings are not filled in: every metric uses the readings present, and gaps lower only the sensor active time.",
    source: "International consensus on time in range (Battelino 2019)",
  },
  {
    term: "Sensor active time",
    definition:
      "Readings present ÷ readings expected at one per 5 minutes over the period (systemTime), in percent, at most 100. At least 70% of 14 days is needed before the other metrics are trusted.",
    // Restates lib/metrics/sensor.ts.
    source: "Battelino T et al. Diabetes Care 2019;42:1593–1603",
  },
  {
    term: "Mean, SD, CV",
    definition:
      "Arithmetic mean; population standard deviation (÷ n); coefficient of variation = 100 × SD ÷ mean. CV ≤ 36% counts as stable.",
    // Restates lib/metrics/descriptive.ts.
    source: "Danne T et al. Diabetes Care 2017;40:1631–1640",
  },
  {
    term: "GMI",
    definition: "Glucose Management Indicator (%) = 3.31 + 0.02392 × mean glucose in mg/dL.",
    // Restates lib/metrics/gmi.ts.
    source: "Bergenstal RM et al. Diabetes Care 2018;41:2275–2280",
  },
  {
    term: "Time in ranges",
    definition:
      "Share of readings in each band, in mg/dL (mmol/L converted at 18.0182 first): very low < 54; low 54 to < 70; in range 70–180 inclusive; high > 180 to 250 inclusive; very high > 250. mmol/L values are converted to the nearest whole mg/dL (a sensor measures whole mg/dL), so each consensus mmol/L edge falls in its own band: 10.0 mmol/L is 180 mg/dL, in range, and 13.9 is 250, high. One edge stays ambiguous: under the pregnancy targets (63–140 mg/dL, shown as 3.5–7.8 mmol/L) a reading of exactly 7.8 mmol/L may have been 140 or 141 mg/dL; it is taken as 141 (7.8 × 18.0182 = 140.5), above the range. Hours per day = share × 24 h.",
    // Restates lib/metrics/time-in-ranges.ts.
    source: "Battelino T et al. Diabetes Care 2019;42:1593–1603",
  },
  {
    term: "GRI",
    definition:
      "Glycemia Risk Index = 3.0 × hypo + 1.6 × hyper, at most 100, with hypo = very low + 0.8 × low and hyper = very high + 0.5 × high (percent of readings).",
    // Restates lib/metrics/gri.ts.
    source: "Klonoff DC et al. J Diabetes Sci Technol 2023;17:1226–1242",
  },
  {
    term: "LBGI, HBGI",
    definition:
      "Means over all readings of the low and high risk r = 10 × f², f = 1.509 × ((ln BG)^1.084 − 5.381), BG in mg/dL; low risk where f < 0, high risk where f > 0.",
    // Restates lib/metrics/risk-index.ts.
    source: "Kovatchev BP et al. Diabetes Care 1997;20:1655–1658 and 1998;21:1870–1875",
  },
  {
    term: "Percentiles",
    definition: `Linear interpolation between closest ranks (Hyndman–Fan type 7, as in R and Excel PERCENTILE.INC); the AGP has a point every ${AGP_STEP_MINUTES} minutes of the readings' displayTime clock, each point's percentiles taken over the readings within ${AGP_HALF_WINDOW_MINUTES} minutes either side of it (wrapping past midnight), and a gap where fewer than ${AGP_MIN_READINGS} readings fall.`,
    // Restates lib/metrics/quantiles.ts.
    source: "Hyndman RJ, Fan Y. Am Stat 1996;50:361–365",
  },
  {
    term: "Hypoglycemia risk",
    // The AGP PDF prints this note on one letter page: the minimum-data rule is named, not spelled
    // out (the risk's badge spells it out wherever a risk is shown).
    definition:
      "The service's category from its statistics; with API v3, which has none, the dashboard's by the same method: LBGI minimal ≤ 1.1 < low ≤ 2.5 < moderate ≤ 5.0 < high; none with too few readings (spec 2.6).",
    // Restates lib/metrics/service-statistics.ts.
    source: "Service specification, section 2.6",
  },
];

/** The note as plain text, for files (methods.txt in exports). */
export function methodsText(context: string): string {
  const lines = [`Methods — ${context}`, ""];
  for (const e of METHODS_ENTRIES) {
    lines.push(`${e.term}: ${e.definition}`, `  Source: ${e.source}`, "");
  }
  return lines.join("\n");
}
