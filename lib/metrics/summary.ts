import { mean, standardDeviation, sum, variance } from "./descriptive";
import { quantile, sortAscending } from "./quantiles";

/**
 * The descriptive summary of a set of readings, with the definitions of descriptive.ts (population
 * variance and SD) and quantiles.ts (type 7); min and max are the ends of the sorted copy.
 * Null for no readings, so one check covers every field.
 */
export interface Summary {
  n: number;
  sum: number;
  mean: number;
  /** Population variance (÷ n). */
  variance: number;
  /** Population standard deviation. */
  standardDeviation: number;
  min: number;
  max: number;
  q1: number;
  median: number;
  q3: number;
}

export function summarize(values: readonly number[]): Summary | null {
  const n = values.length;
  if (n === 0) return null;
  const sorted = sortAscending(values);
  // With n > 0 none of these is null.
  return {
    n,
    sum: sum(values),
    mean: mean(values)!,
    variance: variance(values)!,
    standardDeviation: standardDeviation(values)!,
    min: sorted[0]!,
    max: sorted[n - 1]!,
    q1: quantile(sorted, 0.25)!,
    median: quantile(sorted, 0.5)!,
    q3: quantile(sorted, 0.75)!,
  };
}
