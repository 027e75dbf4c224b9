import { z } from "zod";
import { formatMgdlIn, mgdlRangeText, mgdlText } from "@/lib/cgm/glucose-text";
import type { GlucoseUnit } from "@/lib/cgm/units";
import {
  HIGH_MAX_MGDL,
  IN_RANGE_MAX_MGDL,
  LOW_BELOW_MGDL,
  VERY_LOW_BELOW_MGDL,
} from "@/lib/metrics/constants";
import {
  type BandEdges,
  CONSENSUS_EDGES,
  type GoalMetric,
  TARGET_PRESETS,
  type TargetGroup,
} from "@/lib/metrics/targets";
import type { PerConsensusRange } from "@/lib/metrics/time-in-ranges";

/**
 * The population view's triage flags: which patients a clinic should look at first. Each flag is
 * a consensus goal the patient's last 14 days do not meet, plus a fall of time in range since the
 * 14 days before, with a threshold the clinic may change (clinic_triage_settings; no row: these
 * defaults). Pure: lib/clinic/views/population.ts feeds it the metrics.
 *
 * Each patient is judged by the goals of their target group (lib/preferences/target-group.ts:
 * the clinic's choice, else the patient's): the clinic's thresholds are those of the standard
 * group (type 1 and type 2); a patient of another group is flagged where they miss that group's
 * consensus goals, on its own edges (`triageFor`). Sensor use and the fall of time in range are not
 * goals of a group, so the clinic's thresholds for them apply to every patient.
 */

export interface TriageThresholds {
  /** Flag when time below 54 mg/dL is at least this (%). */
  veryLowPercent: number;
  /** Flag when time below 70 mg/dL (very low included) is at least this (%). */
  lowPercent: number;
  /** Flag when time above 250 mg/dL is at least this (%). */
  veryHighPercent: number;
  /** Flag when time above 180 mg/dL (very high included) is at least this (%). */
  highPercent: number;
  /** Flag when time in range (70–180 mg/dL) is below this (%). */
  inRangeBelowPercent: number;
  /** Flag when time in range fell by at least this many percentage points since the previous 14 days. */
  inRangeDropPoints: number;
  /** Flag when the sensor was in use less than this (% of the expected readings). */
  sensorBelowPercent: number;
}

/**
 * The defaults. Time in ranges and sensor use: the goals of the international consensus on Time
 * in Range for type 1 and type 2 diabetes (Battelino T, Danne T, Bergenstal RM, et al. Clinical
 * Targets for Continuous Glucose Monitoring Data Interpretation: Recommendations From the
 * International Consensus on Time in Range. Diabetes Care 2019;42(8):1593–1603, Table 1): below
 * 54 < 1 %, below 70 < 4 %, above 250 < 5 %, above 180 < 25 %, in range > 70 %, and at least 70 %
 * of 14 days of sensor data; a patient who misses a goal is flagged (the issue words the in-range
 * one as "below 70 %", so exactly 70 % is not flagged). The fall of time in range by 15 points or
 * more between consecutive periods is the deterioration criterion of remote CGM triage programs
 * (TIDE: Ferstad JO, Vallon JJ, Jun D, et al. Population-level management of type 1 diabetes via
 * continuous glucose monitoring and algorithm-enabled patient prioritization: Precision health
 * meets population health. Pediatr Diabetes 2021;22(7):982–991), as the issue asks.
 */
export const CONSENSUS_TRIAGE: TriageThresholds = {
  veryLowPercent: 1,
  lowPercent: 4,
  veryHighPercent: 5,
  highPercent: 25,
  inRangeBelowPercent: 70,
  inRangeDropPoints: 15,
  sensorBelowPercent: 70,
};

export const TRIAGE_FLAGS = [
  "veryLow",
  "low",
  "veryHigh",
  "high",
  "inRange",
  "inRangeDrop",
  "sensor",
] as const;
export type TriageFlag = (typeof TRIAGE_FLAGS)[number];

export const THRESHOLD_OF: Record<TriageFlag, keyof TriageThresholds> = {
  veryLow: "veryLowPercent",
  low: "lowPercent",
  veryHigh: "veryHighPercent",
  high: "highPercent",
  inRange: "inRangeBelowPercent",
  inRangeDrop: "inRangeDropPoints",
  sensor: "sensorBelowPercent",
};

const g = mgdlText;

/** Each setting as the form and its messages name it, glucose edges in the unit on screen. */
export const THRESHOLD_FIELDS: Record<
  keyof TriageThresholds,
  {
    label: (unit: GlucoseUnit) => string;
    comparison: "at least" | "below";
    unit: "%" | "points";
    min: number;
    max: number;
  }
> = {
  veryLowPercent: {
    label: (u) => `Time below ${g(VERY_LOW_BELOW_MGDL, u)}`,
    comparison: "at least",
    unit: "%",
    min: 0.1,
    max: 100,
  },
  lowPercent: {
    label: (u) => `Time below ${g(LOW_BELOW_MGDL, u)}`,
    comparison: "at least",
    unit: "%",
    min: 0.1,
    max: 100,
  },
  veryHighPercent: {
    label: (u) => `Time above ${g(HIGH_MAX_MGDL, u)}`,
    comparison: "at least",
    unit: "%",
    min: 0.1,
    max: 100,
  },
  highPercent: {
    label: (u) => `Time above ${g(IN_RANGE_MAX_MGDL, u)}`,
    comparison: "at least",
    unit: "%",
    min: 0.1,
    max: 100,
  },
  inRangeBelowPercent: {
    label: (u) => `Time in range (${mgdlRangeText(LOW_BELOW_MGDL, IN_RANGE_MAX_MGDL, u)})`,
    comparison: "below",
    unit: "%",
    min: 1,
    max: 100,
  },
  inRangeDropPoints: {
    label: () => "Fall of time in range since the previous 14 days",
    comparison: "at least",
    unit: "points",
    min: 1,
    max: 100,
  },
  sensorBelowPercent: { label: () => "Sensor use", comparison: "below", unit: "%", min: 1, max: 100 },
};

/** What a threshold's message says when it is out of bounds or not a number. */
export function thresholdMessage(key: keyof TriageThresholds, unit: GlucoseUnit = "mg/dL"): string {
  const f = THRESHOLD_FIELDS[key];
  const what = f.unit === "%" ? "a percentage" : "a number of percentage points";
  return `${f.label(unit)}: enter ${what} from ${f.min} to ${f.max}, like ${CONSENSUS_TRIAGE[key]} (the consensus default).`;
}

/**
 * Why these bounds: "at least 0 %" would flag every patient, and a threshold above 100 % or a
 * fall of more than 100 points can never be reached, so each would make its flag meaningless
 * without anyone noticing. Form values arrive as text; an empty field is a mistake, not 0.
 */
const threshold = (key: keyof TriageThresholds) => {
  const { min, max } = THRESHOLD_FIELDS[key];
  const message = thresholdMessage(key);
  return z
    .union([z.number(), z.string().trim().min(1, { message })], { message })
    .transform(Number)
    .pipe(z.number({ message }).min(min, { message }).max(max, { message }));
};

export const triageThresholdsSchema = z.object({
  veryLowPercent: threshold("veryLowPercent"),
  lowPercent: threshold("lowPercent"),
  veryHighPercent: threshold("veryHighPercent"),
  highPercent: threshold("highPercent"),
  inRangeBelowPercent: threshold("inRangeBelowPercent"),
  inRangeDropPoints: threshold("inRangeDropPoints"),
  sensorBelowPercent: threshold("sensorBelowPercent"),
}) satisfies z.ZodType<TriageThresholds, unknown>;

/**
 * The thresholds one patient's flags are judged by: null where their group has no such goal (no
 * flag can be raised), and the edges their time in ranges is measured on.
 */
export type FlagThresholds = { [K in keyof TriageThresholds]: number | null } & {
  edges?: BandEdges;
  /**
   * Flag time in range at the threshold too: a group's consensus goal is "over 70 %", so exactly
   * 70 % misses it, as the patient's own pages say. The clinic's own threshold reads "below".
   */
  inRangeAtThreshold?: boolean;
};

export interface GroupTriage extends FlagThresholds {
  group: TargetGroup;
  edges: BandEdges;
}

/** Which flag (and threshold) stands for each goal of a group: a flag is a goal not met. */
const FLAG_OF_GOAL: Partial<Record<GoalMetric, keyof TriageThresholds>> = {
  timeBelow54: "veryLowPercent",
  timeBelow63: "lowPercent",
  timeBelow70: "lowPercent",
  timeAbove250: "veryHighPercent",
  timeAbove180: "highPercent",
  timeAbove140: "highPercent",
  timeInRange: "inRangeBelowPercent",
};

/**
 * The thresholds a patient of `group` is flagged by under the clinic's settings: the clinic's own
 * for the standard group; for another group its consensus goals (pregnancy: below 54 ≥ 1 %, below
 * 63 ≥ 4 %, above 140 ≥ 25 %, in range 63–140 below 70 %; older or high-risk: below 70 ≥ 1 %,
 * above 250 ≥ 10 %, in range below 50 %), with the clinic's sensor-use and fall thresholds.
 */
export function triageFor(group: TargetGroup, clinic: TriageThresholds): GroupTriage {
  const common = {
    group,
    inRangeDropPoints: clinic.inRangeDropPoints,
    sensorBelowPercent: clinic.sensorBelowPercent,
  };
  if (group === "standard") {
    const { veryLowPercent, lowPercent, veryHighPercent, highPercent, inRangeBelowPercent } = clinic;
    return {
      ...common,
      edges: CONSENSUS_EDGES,
      veryLowPercent,
      lowPercent,
      veryHighPercent,
      highPercent,
      inRangeBelowPercent,
    };
  }
  const preset = TARGET_PRESETS[group];
  const triage: GroupTriage = {
    ...common,
    edges: preset.edges,
    veryLowPercent: null,
    lowPercent: null,
    veryHighPercent: null,
    highPercent: null,
    inRangeBelowPercent: null,
  };
  for (const goal of preset.goals) {
    const key = FLAG_OF_GOAL[goal.metric];
    if (key) triage[key] = goal.percent;
    if (goal.metric === "timeInRange") triage.inRangeAtThreshold = goal.comparison === "over";
  }
  return triage;
}

/** The metrics the flags look at; null where there is nothing to measure. */
export interface TriageMetrics {
  /** Percent of readings in each band on the edges the thresholds are for; null without readings. */
  timeInRanges: PerConsensusRange<number> | null;
  sensorActivePercent: number | null;
}

/**
 * Percentages come from counts (count / n × 100) and sums of them, so a share that is exactly a
 * threshold on paper can land a rounding error either side of it (651 of 1000 readings are
 * 65.10000000000001 %, and 80.1 minus that is 14.999999999999986).
 * Within this much of the threshold counts as at it: far below any difference one reading makes.
 */
const EPSILON = 1e-9;
const atLeast = (value: number, threshold: number) => value >= threshold - EPSILON;
const below = (value: number, threshold: number) => value < threshold - EPSILON;
/** A threshold the patient's group has no goal for raises no flag. */
const reaches = (value: number, threshold: number | null) => threshold !== null && atLeast(value, threshold);

/**
 * A percentage (or percentage points) as the triage table shows it: to one decimal, unless that
 * would put the shown number on the other side of one of the column's flag thresholds than the
 * value itself, as 69.97 % sensor use, flagged "below 70 %", would be shown as 70.0 %. Then with as
 * many decimals as it takes (69.97), up to three; past that, cut towards the value's side.
 */
export function percentBesideThresholds(value: number, thresholds: readonly number[]): string {
  const sameSide = (shown: number) => thresholds.every((t) => atLeast(shown, t) === atLeast(value, t));
  for (const decimals of [1, 2, 3]) {
    const text = value.toFixed(decimals);
    if (sameSide(Number(text))) return text;
  }
  const cut = Math.floor(value * 1000) / 1000;
  return (sameSide(cut) ? cut : value).toFixed(3);
}

/**
 * The flags a patient's period raises, in TRIAGE_FLAGS order. Without readings only sensor use
 * can be judged (and 0 % is below any threshold); the fall of time in range needs readings in
 * both periods.
 */
export function flagsFor(
  metrics: TriageMetrics,
  previousInRange: number | null,
  thresholds: FlagThresholds,
): TriageFlag[] {
  const flags: TriageFlag[] = [];
  const t = metrics.timeInRanges;
  if (t) {
    if (reaches(t.veryLow, thresholds.veryLowPercent)) flags.push("veryLow");
    if (reaches(t.veryLow + t.low, thresholds.lowPercent)) flags.push("low");
    if (reaches(t.veryHigh, thresholds.veryHighPercent)) flags.push("veryHigh");
    if (reaches(t.high + t.veryHigh, thresholds.highPercent)) flags.push("high");
    const inRangeGoal = thresholds.inRangeBelowPercent;
    if (
      inRangeGoal !== null &&
      (thresholds.inRangeAtThreshold ? !(t.inRange > inRangeGoal + EPSILON) : below(t.inRange, inRangeGoal))
    )
      flags.push("inRange");
    if (previousInRange !== null && reaches(previousInRange - t.inRange, thresholds.inRangeDropPoints)) {
      flags.push("inRangeDrop");
    }
  }
  if (
    metrics.sensorActivePercent !== null &&
    thresholds.sensorBelowPercent !== null &&
    below(metrics.sensorActivePercent, thresholds.sensorBelowPercent)
  ) {
    flags.push("sensor");
  }
  return flags;
}

/**
 * A flag in words, with the threshold and edges it was judged by (the clinic's, or the patient's
 * group's): the table shows this text, not only a colour. The range is named when it is not the
 * consensus 70–180 ("In range 63–140 ≤ 70 %").
 */
export function flagLabel(flag: TriageFlag, thresholds: FlagThresholds, unit: GlucoseUnit = "mg/dL"): string {
  const n = (v: number | null) => `${Number((v ?? 0).toFixed(2))}`;
  const g = (mgdl: number) => formatMgdlIn(mgdl, unit);
  const e = thresholds.edges ?? CONSENSUS_EDGES;
  const consensus = e.lowBelow === LOW_BELOW_MGDL && e.inRangeMax === IN_RANGE_MAX_MGDL;
  const range = consensus ? "" : ` ${g(e.lowBelow)}–${g(e.inRangeMax)}`;
  switch (flag) {
    case "veryLow":
      return `Below ${g(e.veryLowBelow)} ≥ ${n(thresholds.veryLowPercent)} %`;
    case "low":
      return `Below ${g(e.lowBelow)} ≥ ${n(thresholds.lowPercent)} %`;
    case "veryHigh":
      return `Above ${g(e.highMax ?? HIGH_MAX_MGDL)} ≥ ${n(thresholds.veryHighPercent)} %`;
    case "high":
      return `Above ${g(e.inRangeMax)} ≥ ${n(thresholds.highPercent)} %`;
    case "inRange":
      return `In range${range} ${thresholds.inRangeAtThreshold ? "≤" : "<"} ${n(thresholds.inRangeBelowPercent)} %`;
    case "inRangeDrop":
      return `In range${range} fell ≥ ${n(thresholds.inRangeDropPoints)} points`;
    case "sensor":
      return `Sensor use < ${n(thresholds.sensorBelowPercent)} %`;
  }
}

/** The glucose flags a group is judged by, in words ("Below 63 ≥ 4 %"): the triage settings' note. */
export function groupFlagLabels(group: TargetGroup, clinic: TriageThresholds, unit: GlucoseUnit): string[] {
  const triage = triageFor(group, clinic);
  return TRIAGE_FLAGS.filter(
    (f) => f !== "inRangeDrop" && f !== "sensor" && triage[THRESHOLD_OF[f]] !== null,
  ).map((f) => flagLabel(f, triage, unit));
}

/** The flag's short name for filters and headings. */
export const FLAG_NAMES: Record<TriageFlag, string> = {
  veryLow: "Very low",
  low: "Low",
  veryHigh: "Very high",
  high: "High",
  inRange: "Low time in range",
  inRangeDrop: "Time in range fell",
  sensor: "Low sensor use",
};
