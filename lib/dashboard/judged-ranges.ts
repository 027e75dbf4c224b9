import { formatGlucoseNumber } from "@/lib/cgm/glucose-text";
import type { GlucoseUnit } from "@/lib/cgm/units";
import {
  type BandKey,
  bandsOf,
  type TargetGroup,
  type TargetPreset,
  timeInBands,
} from "@/lib/metrics/targets";
import { bandRangeText } from "@/lib/reports/agp/agp-model";
import { goalSubject, type JudgedGoal, judgeBands } from "@/lib/trace/goal-text";
import { RANGE_LABELS } from "./palette";

/**
 * Time in ranges as the dashboard shows it (overview, daily view, the clinic's patient page): the
 * target group's bands with their shares as shown, and the group's cumulative goals judged, met or
 * not. The shares and the goal times come from judgeBands, so "2% + 2%" never stands beside
 * "below 70: 3%", and a goal is never shown met by a rounded number when it is not.
 */

export interface ShownBand {
  key: BandKey;
  name: string;
  /** The band's glucose range in words and the unit on screen ("54–69", "above 250"). */
  range: string;
  /** The exact share (percent of readings). */
  percent: number;
  /** The share as shown; the shown shares sum to 100%. */
  percentText: string;
  readings: number;
}

export interface JudgedRanges {
  group: TargetGroup;
  groupLabel: string;
  /** From the highest glucose down, as the stacked bar draws them. */
  bands: ShownBand[];
  goals: JudgedGoal[];
  /** The unmet goals, most urgent first. */
  unmet: JudgedGoal[];
}

/** A period's readings (mg/dL, sentinels as 39 and 401) judged against `preset`; null for none. */
export function judgeRanges(
  preset: TargetPreset,
  valuesMgdl: readonly number[],
  cv: number | null,
  unit: GlucoseUnit,
  /** At least these decimals in every percentage (judgeBands). */
  minDecimals = 0,
): JudgedRanges | null {
  const shares = timeInBands(valuesMgdl, preset.edges);
  if (shares === null) return null;
  const judged = judgeBands(preset, shares, cv, unit, minDecimals);
  return {
    group: preset.id,
    groupLabel: preset.label,
    bands: bandsOf(preset.edges).map((key) => ({
      key,
      name: RANGE_LABELS[key].name,
      range: bandRangeText(key, preset.edges, unit),
      percent: shares[key],
      percentText: judged.bandText[key],
      // The count back from its exact share (count / n × 100).
      readings: Math.round((shares[key] / 100) * valuesMgdl.length),
    })),
    goals: judged.goals,
    unmet: judged.unmet,
  };
}

export interface GoalHeadline {
  met: boolean;
  /** The most urgent unmet goal said plainly, or that every goal was met in the period. */
  sentence: string;
  /** "2 other goals not met: …", naming them; null when there are none. */
  others: string | null;
}

/**
 * The overview's first words on the goals: the worst unmet goal ("Time below 54 mg/dL is 9% — nine
 * times the goal of under 1%."), how many others are unmet, or a calm line when none is.
 * `period` completes "in …" ("the last 14 days").
 */
export function goalHeadline(judged: Pick<JudgedRanges, "unmet">, period: string): GoalHeadline {
  const [worst, ...rest] = judged.unmet;
  if (!worst) return { met: true, sentence: `All consensus goals met in ${period}.`, others: null };
  const others =
    rest.length === 0
      ? null
      : `${rest.length} other ${rest.length === 1 ? "goal" : "goals"} not met: ${rest
          .map((g) => `${lowerFirst(goalSubject(g.metric, g.label))} ${g.valueText} (goal ${g.goal})`)
          .join("; ")}.`;
  return { met: false, sentence: worst.sentence, others };
}

const lowerFirst = (s: string) => `${s.charAt(0).toLowerCase()}${s.slice(1)}`;

/**
 * What the shaded band of a trace is: the patient's own display range, which shades the chart and
 * nothing else. The time in ranges and the goals keep the consensus ranges (`consensusRange`, the
 * group's target range in words), and a custom band says so rather than seeming to move them.
 */
export function shadingNote(
  target: { low: number; high: number },
  unit: GlucoseUnit,
  consensusRange: string,
  /** Whose setting it is, in the reader's words. */
  your = "your",
): string {
  const band = `${formatGlucoseNumber(target.low, unit)}–${formatGlucoseNumber(target.high, unit)}`;
  if (band === consensusRange) return `Target range ${band} ${unit} shaded.`;
  return `Target range ${band} ${unit} shaded: ${your} display setting, shading only. Time in ranges and goals use the consensus range ${consensusRange} ${unit}.`;
}
