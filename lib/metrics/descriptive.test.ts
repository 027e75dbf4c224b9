import { describe, expect, it } from "vitest";
import {
  coefficientOfVariation,
  fromMoments,
  maximum,
  mean,
  minimum,
  momentsOf,
  standardDeviation,
  sum,
  variance,
} from "./descriptive";

// The worked example used across lib/metrics tests: four readings, mg/dL.
const FOUR = [150, 50, 300, 100];

describe("descriptive statistics of [150, 50, 300, 100]", () => {
  it("sum = 150 + 50 + 300 + 100 = 600", () => {
    expect(sum(FOUR)).toBe(600);
  });
  it("mean = 600 / 4 = 150", () => {
    expect(mean(FOUR)).toBe(150);
  });
  it("population variance = (0² + 100² + 150² + 50²) / 4 = 35000 / 4 = 8750", () => {
    expect(variance(FOUR)).toBe(8750);
  });
  it("population SD = √8750 ≈ 93.5414", () => {
    expect(standardDeviation(FOUR)).toBeCloseTo(Math.sqrt(8750), 12);
    expect(standardDeviation(FOUR)).toBeCloseTo(93.5414, 4);
  });
  it("CV = 100 × √8750 / 150 ≈ 62.361 %", () => {
    expect(coefficientOfVariation(FOUR)).toBeCloseTo((100 * Math.sqrt(8750)) / 150, 12);
    expect(coefficientOfVariation(FOUR)).toBeCloseTo(62.361, 3);
  });
  it("min 50, max 300", () => {
    expect(minimum(FOUR)).toBe(50);
    expect(maximum(FOUR)).toBe(300);
  });
});

describe("population, not sample, variance", () => {
  it("[1, 3]: mean 2, Σ(x − 2)² = 2, ÷ n = 1 (a sample variance would be 2)", () => {
    expect(variance([1, 3])).toBe(1);
    expect(standardDeviation([1, 3])).toBe(1);
  });
  it("a single reading has variance 0", () => {
    expect(variance([120])).toBe(0);
    expect(coefficientOfVariation([120])).toBe(0);
  });
});

describe("sentinels take part as 39 and 401", () => {
  it("mean of [39, 401] = 440 / 2 = 220; variance = (181² + 181²) / 2 = 32761", () => {
    expect(mean([39, 401])).toBe(220);
    expect(variance([39, 401])).toBe(32761);
    expect(minimum([401, 39])).toBe(39);
    expect(maximum([401, 39])).toBe(401);
  });
});

describe("empty input", () => {
  it("sum is the empty sum 0; every other statistic is null", () => {
    expect(sum([])).toBe(0);
    expect(mean([])).toBeNull();
    expect(variance([])).toBeNull();
    expect(standardDeviation([])).toBeNull();
    expect(coefficientOfVariation([])).toBeNull();
    expect(minimum([])).toBeNull();
    expect(maximum([])).toBeNull();
  });
  it("CV is null when the mean is 0", () => {
    expect(coefficientOfVariation([-1, 1])).toBeNull();
  });
});

it("handles inputs too long for Math.min(...values)", () => {
  const many = Array.from({ length: 300_000 }, (_, i) => 40 + (i % 361));
  expect(minimum(many)).toBe(40);
  expect(maximum(many)).toBe(400);
});

describe("fromMoments", () => {
  it("gives the two-pass mean, variance, SD and CV from sums added up in parts", () => {
    // 100, 200, 300: mean 200, population variance (100² + 0 + 100²) / 3 = 6666.67, CV 40.82 %.
    const a = momentsOf([100, 200]);
    const b = momentsOf([300]);
    const m = fromMoments({
      n: a.n + b.n,
      sum: a.sum + b.sum,
      sumOfSquares: a.sumOfSquares + b.sumOfSquares,
    });
    expect(m.mean).toBe(200);
    expect(m.variance).toBeCloseTo(20_000 / 3, 9);
    expect(m.standardDeviation).toBeCloseTo(81.6497, 4);
    expect(m.cv).toBeCloseTo(40.8248, 4);
  });

  it("agrees with the two-pass definitions on a realistic CGM series", () => {
    const values = Array.from({ length: 4032 }, (_, i) =>
      Math.round(150 + 70 * Math.sin(i / 40) + (i % 7) * 3),
    );
    values[10] = 39;
    values[20] = 401;
    const m = fromMoments(momentsOf(values));
    expect(m.mean).toBe(mean(values));
    expect(m.variance).toBeCloseTo(variance(values) ?? Number.NaN, 7);
    expect(m.cv).toBeCloseTo(coefficientOfVariation(values) ?? Number.NaN, 9);
  });

  it("is null for no readings and 0 (not NaN) for a constant series", () => {
    expect(fromMoments({ n: 0, sum: 0, sumOfSquares: 0 })).toEqual({
      mean: null,
      variance: null,
      standardDeviation: null,
      cv: null,
    });
    expect(fromMoments(momentsOf([110.1, 110.1, 110.1])).standardDeviation).toBe(0);
  });
});
