/** Median, p90, p99 and minimum of a benchmark's samples. */
export function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
  return { median: at(0.5), p90: at(0.9), p99: at(0.99), min: s[0] ?? Number.NaN };
}
