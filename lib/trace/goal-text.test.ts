import { describe, expect, it } from "vitest";
import { evaluateGoals } from "@/lib/metrics/goals";
import { TARGET_PRESETS, timeInBands } from "@/lib/metrics/targets";
import { goalLabel, goalSentence, goalText, judgeBands } from "./goal-text";

const standard = TARGET_PRESETS.standard;
const readings = (...pairs: Array<[number, number]>) => pairs.flatMap(([value, n]) => Array(n).fill(value));

describe("goal words", () => {
  it("labels goals in the unit on screen", () => {
    expect(standard.goals.map((g) => goalLabel(g, standard.edges, "mmol/L"))).toEqual([
      "Above 13.9 mmol/L",
      "Above 10.0 mmol/L",
      "3.9–10.0 mmol/L",
      "Below 3.9 mmol/L",
      "Below 3.0 mmol/L",
      "Glucose variability (CV)",
    ]);
    expect(standard.goals.map(goalText)).toEqual([
      "under 5%",
      "under 25%",
      "over 70%",
      "under 4%",
      "under 1%",
      "36% or less",
    ]);
  });

  it("says nine times the goal for 9% below 54 mg/dL", () => {
    const r = evaluateGoals(standard, readings([45, 9], [60, 9], [120, 82]), 30).find(
      (x) => x.metric === "timeBelow54",
    )!;
    expect(goalSentence(r, "Below 54 mg/dL")).toBe(
      "Time below 54 mg/dL is 9% — nine times the goal of under 1%.",
    );
  });

  it("counts the times from the value as shown: 8.97% shown as 9.0% is nine times, not eight", () => {
    const r = evaluateGoals(standard, readings([45, 9], [60, 9], [120, 82]), 30).find(
      (x) => x.metric === "timeBelow54",
    )!;
    expect(goalSentence({ ...r, value: 8.97 }, "Below 54 mg/dL", "9.0")).toBe(
      "Time below 54 mg/dL is 9.0% — nine times the goal of under 1%.",
    );
  });

  it("says time in range short of its goal, and a goal met as met", () => {
    const results = evaluateGoals(standard, readings([120, 45], [200, 55]), 30);
    const tir = results.find((x) => x.metric === "timeInRange")!;
    expect(goalSentence(tir, "70–180 mg/dL")).toBe(
      "Time in range 70–180 mg/dL is 45%, short of the goal of over 70%.",
    );
    const below54 = results.find((x) => x.metric === "timeBelow54")!;
    expect(goalSentence(below54, "Below 54 mg/dL")).toBe(
      "Time below 54 mg/dL is 0%, within the goal of under 1%.",
    );
  });
});

describe("judgeBands", () => {
  it("shows the worst unmet goal first and values that agree with the bands", () => {
    // SandboxUser2's shape: lows far above the goals.
    const values = readings([45, 9], [60, 9], [120, 60], [200, 17], [300, 5]);
    const shares = timeInBands(values, standard.edges)!;
    const judged = judgeBands(standard, shares, 40, "mg/dL");
    expect(judged.unmet[0]!.sentence).toBe("Time below 54 mg/dL is 9% — nine times the goal of under 1%.");
    expect(judged.goals.find((g) => g.metric === "timeBelow70")!.valueText).toBe("18%");
    expect(judged.bandText).toMatchObject({
      veryLow: "9%",
      low: "9%",
      inRange: "60%",
      high: "17%",
      veryHigh: "5%",
    });
    expect(judged.unmet.map((g) => g.metric)).toEqual([
      "timeBelow54",
      "timeBelow70",
      "timeAbove250",
      "timeInRange",
      "cv",
    ]);
  });
});
