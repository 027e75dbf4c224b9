import { describe, expect, it } from "vitest";
import { median, quantile, quartiles, sortAscending } from "./quantiles";

describe("type-7 quantiles of [150, 50, 300, 100] (sorted: 50, 100, 150, 300)", () => {
  const sorted = [50, 100, 150, 300];
  it("Q1: h = 3 × 0.25 = 0.75 → 50 + 0.75 × (100 − 50) = 87.5", () => {
    expect(quantile(sorted, 0.25)).toBe(87.5);
  });
  it("median: h = 1.5 → 100 + 0.5 × (150 − 100) = 125", () => {
    expect(quantile(sorted, 0.5)).toBe(125);
    expect(median([150, 50, 300, 100])).toBe(125);
  });
  it("Q3: h = 2.25 → 150 + 0.25 × (300 − 150) = 187.5", () => {
    expect(quantile(sorted, 0.75)).toBe(187.5);
  });
  it("quartiles sorts its own copy", () => {
    const input = [150, 50, 300, 100];
    expect(quartiles(input)).toEqual({ q1: 87.5, q2: 125, q3: 187.5 });
    expect(input).toEqual([150, 50, 300, 100]);
  });
  it("Q(0) is the minimum and Q(1) the maximum", () => {
    expect(quantile(sorted, 0)).toBe(50);
    expect(quantile(sorted, 1)).toBe(300);
  });
});

describe("other sizes", () => {
  it("odd n: median of [39, 100, 401] is the middle value 100", () => {
    expect(median([401, 39, 100])).toBe(100);
  });
  it("[1..5]: h = 4 × 0.25 = 1 → Q1 = 2, Q3 = 4 exactly (Excel QUARTILE.INC gives the same)", () => {
    expect(quartiles([5, 4, 3, 2, 1])).toEqual({ q1: 2, q2: 3, q3: 4 });
  });
  it("a single value is every quantile", () => {
    expect(quartiles([120])).toEqual({ q1: 120, q2: 120, q3: 120 });
  });
});

describe("sortAscending", () => {
  it("sorts numerically, not as strings", () => {
    expect(sortAscending([100, 39, 401, 5])).toEqual([5, 39, 100, 401]);
  });
});

describe("empty input and errors", () => {
  it("no values: null", () => {
    expect(quantile([], 0.5)).toBeNull();
    expect(median([])).toBeNull();
    expect(quartiles([])).toBeNull();
  });
  it("p outside [0, 1] or NaN throws", () => {
    expect(() => quantile([1, 2], 1.5)).toThrow(RangeError);
    expect(() => quantile([1, 2], -0.1)).toThrow(RangeError);
    expect(() => quantile([1, 2], Number.NaN)).toThrow(RangeError);
  });
  it("unsorted input to quantile throws", () => {
    expect(() => quantile([2, 1], 0.5)).toThrow(/sorted/);
  });
});
