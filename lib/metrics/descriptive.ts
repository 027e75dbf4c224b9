/**
 * Descriptive statistics of a set of glucose readings.
 *
 * Conventions of lib/metrics:
 * - Values are finite numbers, mg/dL unless a name says otherwise. The sentinels 39 ("below 40")
 *   and 401 ("above 400") take part as 39 and 401 (spec section 2.1).
 * - Empty input: a statistic that is undefined for no data returns null (never NaN, never a
 *   thrown error), so a caller must decide what to show. `sum` of nothing is 0, the empty sum.
 * - No rounding: results are full-precision floats; rounding is for display.
 */

/** Σ xᵢ. The empty sum is 0. */
export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** Arithmetic mean, Σ xᵢ / n; null for no values. */
export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : sum(values) / values.length;
}

/**
 * Population variance, σ² = Σ (xᵢ − mean)² / n; null for no values.
 *
 * Population (÷ n), not sample (÷ (n − 1)): CGM statistics describe the readings observed in the
 * window itself, not an estimate of a larger population's variance from a sample; with the hundreds
 * of readings of a CGM day the two differ by well under 1%. Computed in two passes (mean first) to
 * avoid the cancellation of the Σx² − n·mean² shortcut.
 */
export function variance(values: readonly number[]): number | null {
  const m = mean(values);
  if (m === null) return null;
  let squares = 0;
  for (const v of values) squares += (v - m) ** 2;
  return squares / values.length;
}

/** Population standard deviation, σ = √(population variance); null for no values. See `variance`. */
export function standardDeviation(values: readonly number[]): number | null {
  const v = variance(values);
  return v === null ? null : Math.sqrt(v);
}

/**
 * Coefficient of variation in percent, CV = 100 × σ / mean (σ: population SD); null for no values
 * or a mean of 0. Danne T et al., International Consensus on Use of Continuous Glucose Monitoring,
 * Diabetes Care 2017;40(12):1631–1640 (stable glycemia: CV ≤ 36%, `CV_STABLE_MAX_PERCENT`).
 */
export function coefficientOfVariation(values: readonly number[]): number | null {
  const m = mean(values);
  const sd = standardDeviation(values);
  if (m === null || sd === null || m === 0) return null;
  return (100 * sd) / m;
}

/** Smallest value; null for no values. A loop, not Math.min(...values), so long inputs are safe. */
export function minimum(values: readonly number[]): number | null {
  let best: number | null = null;
  for (const v of values) if (best === null || v < best) best = v;
  return best;
}

/** Largest value; null for no values. */
export function maximum(values: readonly number[]): number | null {
  let best: number | null = null;
  for (const v of values) if (best === null || v > best) best = v;
  return best;
}
