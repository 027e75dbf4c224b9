import { describe, expect, it } from "vitest";
import {
  coefficientOfVariation,
  maximum,
  mean,
  minimum,
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
