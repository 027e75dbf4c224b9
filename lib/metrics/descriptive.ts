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

/** Running sums of a set of readings: enough for mean, variance, SD and CV, and they add up. */
export interface Moments {
  n: number;
  /** Σ xᵢ */
  sum: number;
  /** Σ xᵢ² */
  sumOfSquares: number;
}

export function momentsOf(values: readonly number[]): Moments {
  let squares = 0;
  for (const v of values) squares += v * v;
  return { n: values.length, sum: sum(values), sumOfSquares: squares };
}

/**
 * Mean, population variance, SD and CV (the definitions above) from sums that were added up
 * elsewhere, per day for instance: mean = Σx / n, σ² = Σx² / n − mean². Why this form is safe
 * here although `variance` avoids it: glucose in mg/dL is at most a few hundred with an SD of tens,
 * so Σx²/n and mean² agree in their first 1–2 digits only and double precision keeps about 13 of
 * the rest (the one-pass and two-pass results agree to 1e-7 mg/dL², see the tests). What is left
 * of a constant series (a residue under 1e-12 × mean², rounding noise, possibly negative) is read
 * as 0. Null fields for no readings, like above.
 */
export function fromMoments(m: Moments): {
  mean: number | null;
  variance: number | null;
  standardDeviation: number | null;
  cv: number | null;
} {
  if (m.n === 0) return { mean: null, variance: null, standardDeviation: null, cv: null };
  const mean = m.sum / m.n;
  const raw = m.sumOfSquares / m.n - mean * mean;
  const variance = raw <= mean * mean * 1e-12 ? 0 : raw;
  const standardDeviation = Math.sqrt(variance);
  return { mean, variance, standardDeviation, cv: mean === 0 ? null : (100 * standardDeviation) / mean };
}
