import { describe, expect, it } from "vitest";
import { type TargetGroup, timeInBands } from "@/lib/metrics/targets";
import { rangePercentages } from "@/lib/metrics/time-in-ranges";
import {
  CONSENSUS_TRIAGE,
  flagLabel,
  flagsFor,
  percentBesideThresholds,
  THRESHOLD_FIELDS,
  type TriageThresholds,
  thresholdMessage,
  triageFor,
  triageThresholdsSchema,
} from "./triage";

/** Metrics of a period from counts of readings per range, as the population view computes them. */
const period = (
  counts: { veryLow?: number; low?: number; inRange?: number; high?: number; veryHigh?: number },
  sensorActivePercent: number | null = 100,
) => ({
  timeInRanges: rangePercentages({ veryLow: 0, low: 0, inRange: 0, high: 0, veryHigh: 0, ...counts }),
  sensorActivePercent,
});

describe("flagsFor with the consensus thresholds", () => {
  it("flags nothing for a patient who meets every goal", () => {
    // 0.5 % below 54, 3.5 % below 70, 4.5 % above 250, 24.5 % above 180, 72 % in range.
    const p = period({ veryLow: 1, low: 6, inRange: 144, high: 40, veryHigh: 9 }, 95);
    expect(flagsFor(p, 72, CONSENSUS_TRIAGE)).toEqual([]);
  });

  it("flags time below 54 at exactly 1 % and not just under it", () => {
    expect(flagsFor(period({ veryLow: 1, inRange: 99 }), null, CONSENSUS_TRIAGE)).toEqual(["veryLow"]);
    // 1 of 101 readings: 0.990 %.
    expect(flagsFor(period({ veryLow: 1, inRange: 100 }), null, CONSENSUS_TRIAGE)).toEqual([]);
  });

  it("counts very low within below 70: 1 % + 3 % is exactly 4 %", () => {
    expect(flagsFor(period({ veryLow: 1, low: 3, inRange: 96 }), null, CONSENSUS_TRIAGE)).toEqual([
      "veryLow",
      "low",
    ]);
    // 3.9 % below 70, none below 54.
    expect(flagsFor(period({ low: 39, inRange: 961 }), null, CONSENSUS_TRIAGE)).toEqual([]);
  });

  it("flags above 250 from exactly 5 % and above 180 (very high included) from exactly 25 %", () => {
    expect(flagsFor(period({ inRange: 75, high: 20, veryHigh: 5 }), null, CONSENSUS_TRIAGE)).toEqual([
      "veryHigh",
      "high",
    ]);
    // 4.9 % above 250 and 24.9 % above 180: neither.
    expect(flagsFor(period({ inRange: 751, high: 200, veryHigh: 49 }), null, CONSENSUS_TRIAGE)).toEqual([]);
  });

  it("flags time in range below 70 %, not at exactly 70 %", () => {
    expect(flagsFor(period({ inRange: 70, high: 30 }), null, CONSENSUS_TRIAGE)).toEqual(["high"]);
    // 699 of 1000: 69.9 %.
    expect(flagsFor(period({ inRange: 699, high: 250, veryHigh: 51 }), null, CONSENSUS_TRIAGE)).toContain(
      "inRange",
    );
  });

  it("flags a fall of time in range of exactly 15 points, also when the subtraction rounds below 15", () => {
    // 85 % before, 70 % now: 15 points.
    expect(flagsFor(period({ inRange: 70, high: 30 }), 85, CONSENSUS_TRIAGE)).toContain("inRangeDrop");
    // 651 of 1000 is 65.10000000000001 %, and 80.1 − that is 14.999999999999986 in binary.
    const p = period({ inRange: 651, high: 349 });
    expect(80.1 - (p.timeInRanges?.inRange ?? 0)).toBeLessThan(15);
    expect(flagsFor(p, 80.1, CONSENSUS_TRIAGE)).toContain("inRangeDrop");
    // 14.9 points: no.
    expect(flagsFor(p, 80, CONSENSUS_TRIAGE)).not.toContain("inRangeDrop");
    // A rise is not a fall; no previous period, no comparison.
    expect(flagsFor(p, 50, CONSENSUS_TRIAGE)).not.toContain("inRangeDrop");
    expect(flagsFor(p, null, CONSENSUS_TRIAGE)).not.toContain("inRangeDrop");
  });

  it("flags sensor use below 70 %, and a period without readings only for that", () => {
    expect(flagsFor(period({ inRange: 10 }, 69.99), null, CONSENSUS_TRIAGE)).toEqual(["sensor"]);
    expect(flagsFor(period({ inRange: 10 }, 70), null, CONSENSUS_TRIAGE)).toEqual([]);
    expect(flagsFor({ timeInRanges: null, sensorActivePercent: 0 }, 80, CONSENSUS_TRIAGE)).toEqual([
      "sensor",
    ]);
    expect(flagsFor({ timeInRanges: null, sensorActivePercent: null }, null, CONSENSUS_TRIAGE)).toEqual([]);
  });

  it("follows a clinic's own thresholds", () => {
    const strict: TriageThresholds = { ...CONSENSUS_TRIAGE, veryLowPercent: 0.5, inRangeBelowPercent: 80 };
    const p = period({ veryLow: 1, inRange: 149, high: 50 }); // 0.67 % below 54, 74.5 % in range
    expect(flagsFor(p, null, CONSENSUS_TRIAGE)).toEqual(["high"]);
    expect(flagsFor(p, null, strict)).toEqual(["veryLow", "high", "inRange"]);
  });
});

describe("triageThresholdsSchema", () => {
  const form = (over: Record<string, string> = {}) => ({
    veryLowPercent: "1",
    lowPercent: "4",
    veryHighPercent: "5",
    highPercent: "25",
    inRangeBelowPercent: "70",
    inRangeDropPoints: "15",
    sensorBelowPercent: "70",
    ...over,
  });

  it("reads the form's text as numbers", () => {
    expect(triageThresholdsSchema.parse(form({ veryLowPercent: " 0.5 " }))).toEqual({
      ...CONSENSUS_TRIAGE,
      veryLowPercent: 0.5,
    });
    expect(triageThresholdsSchema.parse(CONSENSUS_TRIAGE)).toEqual(CONSENSUS_TRIAGE);
  });

  it.each([
    ["veryLowPercent", "0"],
    ["veryLowPercent", ""],
    ["lowPercent", "abc"],
    ["highPercent", "100.5"],
    ["inRangeDropPoints", "-3"],
    ["sensorBelowPercent", "Infinity"],
  ])("refuses %s = %j with a message naming the field and its bounds", (key, value) => {
    const r = triageThresholdsSchema.safeParse(form({ [key]: value }));
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual([key]);
    expect(r.error?.issues[0]?.message).toBe(thresholdMessage(key as keyof TriageThresholds));
  });

  it("words a message", () => {
    expect(thresholdMessage("veryLowPercent")).toBe(
      "Time below 54 mg/dL: enter a percentage from 0.1 to 100, like 1 (the consensus default).",
    );
    expect(thresholdMessage("inRangeDropPoints")).toBe(
      "Fall of time in range since the previous 14 days: enter a number of percentage points from 1 to 100, like 15 (the consensus default).",
    );
  });

  it("names the glucose edges in the unit on screen", () => {
    expect(thresholdMessage("lowPercent", "mmol/L")).toBe(
      "Time below 3.9 mmol/L: enter a percentage from 0.1 to 100, like 4 (the consensus default).",
    );
    expect(THRESHOLD_FIELDS.inRangeBelowPercent.label("mmol/L")).toBe("Time in range (3.9–10.0 mmol/L)");
    expect(THRESHOLD_FIELDS.inRangeBelowPercent.label("mg/dL")).toBe("Time in range (70–180 mg/dL)");
    expect(THRESHOLD_FIELDS.veryHighPercent.label("mmol/L")).toBe("Time above 13.9 mmol/L");
  });
});

describe("flagLabel", () => {
  it("says the rule in words with the clinic's threshold", () => {
    expect(flagLabel("low", CONSENSUS_TRIAGE)).toBe("Below 70 ≥ 4 %");
    expect(flagLabel("inRangeDrop", { ...CONSENSUS_TRIAGE, inRangeDropPoints: 12.5 })).toBe(
      "In range fell ≥ 12.5 points",
    );
  });

  it("writes the glucose edges in the clinician's unit (the consensus's 3.0, 3.9, 10.0, 13.9 mmol/L)", () => {
    const inMmol = (f: Parameters<typeof flagLabel>[0]) => flagLabel(f, CONSENSUS_TRIAGE, "mmol/L");
    expect(inMmol("veryLow")).toBe("Below 3.0 ≥ 1 %");
    expect(inMmol("low")).toBe("Below 3.9 ≥ 4 %");
    expect(inMmol("high")).toBe("Above 10.0 ≥ 25 %");
    expect(inMmol("veryHigh")).toBe("Above 13.9 ≥ 5 %");
    expect(flagLabel("veryHigh", CONSENSUS_TRIAGE, "mg/dL")).toBe("Above 250 ≥ 5 %");
  });
});

describe("percentBesideThresholds", () => {
  it("shows one decimal when that keeps the number on its side of every threshold", () => {
    expect(percentBesideThresholds(42.26, [])).toBe("42.3");
    expect(percentBesideThresholds(70.04, [70])).toBe("70.0");
    // Exactly at a threshold is on its "at least" side, and so is 70.0.
    expect(percentBesideThresholds(70, [70])).toBe("70.0");
    expect(percentBesideThresholds(12.34, [4, 25])).toBe("12.3");
  });

  it("shows more decimals where one would round onto the threshold", () => {
    // Sensor use 69.97 % is flagged "below 70 %": 70.0 would contradict the flag.
    expect(percentBesideThresholds(69.97, [70])).toBe("69.97");
    // Time below 70 of 3.96 % is not flagged "at least 4 %": 4.0 would look as if it were.
    expect(percentBesideThresholds(3.96, [4])).toBe("3.96");
    // A fall of 14.96 points is not flagged "15 points or more".
    expect(percentBesideThresholds(14.96, [15])).toBe("14.96");
    expect(percentBesideThresholds(0.999, [1])).toBe("0.999");
  });

  it("cuts towards the value past three decimals", () => {
    expect(percentBesideThresholds(0.9999, [1])).toBe("0.999");
    expect(percentBesideThresholds(69.99996, [70])).toBe("69.999");
  });
});

describe("triage by the patient's target group", () => {
  /** The flags of a period's readings (mg/dL) judged by `group` under the clinic's thresholds. */
  const flagsOf = (values: number[], group: TargetGroup, clinic = CONSENSUS_TRIAGE, previous = null) => {
    const triage = triageFor(group, clinic);
    return flagsFor(
      { timeInRanges: timeInBands(values, triage.edges), sensorActivePercent: 100 },
      previous,
      triage,
    );
  };
  const readings = (parts: Array<[count: number, mgdl: number]>) =>
    parts.flatMap(([count, mgdl]) => Array<number>(count).fill(mgdl));

  it("flags the time above 140 of a pregnancy patient where the standard goals flag nothing", () => {
    // 29 % at 150 mg/dL: in range 70–180 for the standard goals; above 140 for pregnancy, 29 %
    // against "under 25 %". In range 63–140 is then 71 %, over 70: no flag for it.
    const values = readings([
      [29, 150],
      [71, 100],
    ]);
    expect(flagsOf(values, "standard")).toEqual([]);
    expect(flagsOf(values, "pregnancy")).toEqual(["high"]);
    const more = readings([
      [31, 150],
      [69, 100],
    ]);
    expect(flagsOf(more, "pregnancy")).toEqual(["high", "inRange"]);
  });

  it("judges 20 % at 150 mg/dL and 80 % at 100 as the brief's example: pregnancy in range 80 %, above 140 20 %", () => {
    const values = readings([
      [20, 150],
      [80, 100],
    ]);
    expect(flagsOf(values, "standard")).toEqual([]);
    // Above 140 is 20 % (< 25 %) and in range 80 % (> 70 %): met, so no flag either way.
    expect(flagsOf(values, "pregnancy")).toEqual([]);
    // At 25 % the pregnancy goal "above 140 < 25 %" is missed; the standard goals still hold.
    const more = readings([
      [25, 150],
      [75, 100],
    ]);
    expect(flagsOf(more, "standard")).toEqual([]);
    expect(flagsOf(more, "pregnancy")).toEqual(["high"]);
  });

  it("does not flag 63–69 mg/dL for pregnancy (its range), which the standard goals flag as low", () => {
    const values = readings([
      [5, 66],
      [95, 110],
    ]);
    expect(flagsOf(values, "standard")).toEqual(["low"]);
    expect(flagsOf(values, "pregnancy")).toEqual([]);
    const below63 = readings([
      [4, 60],
      [96, 110],
    ]);
    expect(flagsOf(below63, "pregnancy")).toEqual(["low"]);
  });

  it("flags an older or high-risk patient at 1 % below 70, and not at 60 % in range", () => {
    const low = readings([
      [2, 65],
      [98, 120],
    ]);
    expect(flagsOf(low, "standard")).toEqual([]);
    expect(flagsOf(low, "olderHighRisk")).toEqual(["low"]);
    const high = readings([
      [40, 200],
      [60, 120],
    ]);
    expect(flagsOf(high, "standard")).toEqual(["high", "inRange"]);
    expect(flagsOf(high, "olderHighRisk")).toEqual([]);
    // Above 250 ≥ 10 %, not 5 %.
    expect(
      flagsOf(
        readings([
          [8, 300],
          [92, 120],
        ]),
        "olderHighRisk",
      ),
    ).toEqual([]);
    expect(
      flagsOf(
        readings([
          [10, 300],
          [90, 120],
        ]),
        "olderHighRisk",
      ),
    ).toEqual(["veryHigh"]);
  });

  it("applies the clinic's changed thresholds to the standard group only, and its sensor and fall thresholds to all", () => {
    const strict = { ...CONSENSUS_TRIAGE, highPercent: 10, inRangeDropPoints: 5, sensorBelowPercent: 90 };
    const values = readings([
      [15, 150],
      [85, 100],
    ]);
    expect(triageFor("standard", strict).highPercent).toBe(10);
    expect(triageFor("pregnancy", strict)).toMatchObject({
      veryLowPercent: 1,
      lowPercent: 4,
      veryHighPercent: null,
      highPercent: 25,
      inRangeBelowPercent: 70,
      inRangeDropPoints: 5,
      sensorBelowPercent: 90,
    });
    expect(triageFor("olderHighRisk", strict)).toMatchObject({
      veryLowPercent: null,
      lowPercent: 1,
      veryHighPercent: 10,
      highPercent: null,
      inRangeBelowPercent: 50,
    });
    // In range 63–140 is 85 %, fallen 10 points since 95 %.
    const triage = triageFor("pregnancy", strict);
    const shares = timeInBands(values, triage.edges);
    expect(flagsFor({ timeInRanges: shares, sensorActivePercent: 80 }, 95, triage)).toEqual([
      "inRangeDrop",
      "sensor",
    ]);
  });

  it("flags a group's time in range at exactly its goal, which the goal (over 70 %) says is not met", () => {
    // 70 of 100 readings in 63–140 (100 mg/dL) and 30 above 140: exactly 70 % in range.
    const values = readings([
      [70, 100],
      [30, 150],
    ]);
    const pregnancy = triageFor("pregnancy", CONSENSUS_TRIAGE);
    const flags = flagsFor(
      { timeInRanges: timeInBands(values, pregnancy.edges), sensorActivePercent: 100 },
      null,
      pregnancy,
    );
    expect(flags).toContain("inRange");
    // The clinic's own threshold for the standard group reads "below 70 %": 70 % is not flagged.
    const standard = triageFor("standard", CONSENSUS_TRIAGE);
    const atSeventy = readings([
      [70, 100],
      [30, 190],
    ]);
    expect(
      flagsFor(
        { timeInRanges: timeInBands(atSeventy, standard.edges), sensorActivePercent: 100 },
        null,
        standard,
      ),
    ).not.toContain("inRange");
  });

  it("names the group's own edges in the flag's words", () => {
    const pregnancy = triageFor("pregnancy", CONSENSUS_TRIAGE);
    expect(flagLabel("low", pregnancy)).toBe("Below 63 ≥ 4 %");
    expect(flagLabel("high", pregnancy)).toBe("Above 140 ≥ 25 %");
    expect(flagLabel("inRange", pregnancy)).toBe("In range 63–140 ≤ 70 %");
    expect(flagLabel("inRange", pregnancy, "mmol/L")).toBe("In range 3.5–7.8 ≤ 70 %");
    expect(flagLabel("low", triageFor("olderHighRisk", CONSENSUS_TRIAGE))).toBe("Below 70 ≥ 1 %");
    expect(flagLabel("inRange", triageFor("standard", CONSENSUS_TRIAGE))).toBe("In range < 70 %");
  });
});
