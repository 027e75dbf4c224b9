/**
 * Trend arrows and the trendRate ranges of spec section 2.1 (rates in mg/dL/min). The bounds are
 * asymmetric on purpose: `singleUp` includes +2 but `fortyFiveDown` includes −1, as the table says.
 */
export const ARROW_TRENDS = [
  "doubleUp",
  "singleUp",
  "fortyFiveUp",
  "flat",
  "fortyFiveDown",
  "singleDown",
  "doubleDown",
] as const;
export const NON_ARROW_TRENDS = ["none", "notComputable", "rateOutOfRange"] as const;
export const TRENDS = [...ARROW_TRENDS, ...NON_ARROW_TRENDS] as const;
export type Trend = (typeof TRENDS)[number];
export type ArrowTrend = (typeof ARROW_TRENDS)[number];

/** Largest magnitude of rate to which an arrow is assigned; beyond it the trend is rateOutOfRange. */
export const MAX_ARROW_RATE_MGDL_PER_MIN = 8;

/** The arrow for a rate in mg/dL/min, or `rateOutOfRange` outside −8 < rate ≤ +8. */
export function trendForRate(rateMgdlPerMin: number): ArrowTrend | "rateOutOfRange" {
  const r = rateMgdlPerMin;
  if (r > 8 || r <= -8 || Number.isNaN(r)) return "rateOutOfRange";
  if (r >= 3) return "doubleUp";
  if (r >= 2) return "singleUp";
  if (r >= 1) return "fortyFiveUp";
  if (r > -1) return "flat";
  if (r > -2) return "fortyFiveDown";
  if (r > -3) return "singleDown";
  return "doubleDown";
}

/** Whether a rate lies in the range the table gives for an arrow trend. */
export function rateMatchesTrend(trend: ArrowTrend, rateMgdlPerMin: number): boolean {
  return trendForRate(rateMgdlPerMin) === trend;
}

/** Words for each trend, for screen readers and tooltips. */
export const TREND_DESCRIPTIONS: Record<Trend, string> = {
  doubleUp: "rising quickly",
  singleUp: "rising",
  fortyFiveUp: "rising slowly",
  flat: "steady",
  fortyFiveDown: "falling slowly",
  singleDown: "falling",
  doubleDown: "falling quickly",
  none: "no trend arrow",
  notComputable: "trend cannot be computed",
  rateOutOfRange: "rate of change out of range",
};
