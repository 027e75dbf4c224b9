import { GMI_INTERCEPT_PERCENT, GMI_SLOPE_PERCENT_PER_MGDL } from "./constants";

/**
 * Glucose Management Indicator in percent (NGSP A1C units), from the mean glucose in mg/dL:
 * GMI (%) = 3.31 + 0.02392 × mean (mg/dL).
 * Bergenstal RM, Beck RW, Close KL, et al. Glucose Management Indicator (GMI): A New Term for
 * Estimating A1C From Continuous Glucose Monitoring. Diabetes Care 2018;41(11):2275–2280.
 * The formula was fitted on at least 10–14 days of CGM data; a shorter window gives a number that
 * means less. Null in, null out (the mean of no readings).
 */
export function gmi(meanMgdl: number | null): number | null {
  return meanMgdl === null ? null : GMI_INTERCEPT_PERCENT + GMI_SLOPE_PERCENT_PER_MGDL * meanMgdl;
}
