import { describe, expect, it } from "vitest";
import { sensorActivePercent } from "./sensor";

const DAY = 86_400_000;

describe("sensorActivePercent", () => {
  it("is present over expected at one reading per 5 minutes", () => {
    // 14 days expect 14 × 288 = 4032 readings; 2822 present is 69.99 %, just under the consensus 70 %.
    expect(sensorActivePercent(2822, 0, 14 * DAY)).toBeCloseTo(69.9901, 3);
    expect(sensorActivePercent(4032, 0, 14 * DAY)).toBe(100);
    expect(sensorActivePercent(144, 0, DAY)).toBe(50);
  });

  it("caps at 100 when the window's edges hold one reading more", () => {
    expect(sensorActivePercent(289, 0, DAY)).toBe(100);
  });

  it("is null for an empty window", () => {
    expect(sensorActivePercent(0, 5, 5)).toBeNull();
    expect(sensorActivePercent(3, 0, 60_000)).toBeNull();
  });
});
