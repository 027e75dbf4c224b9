import { z } from "zod";
import { convertGlucose, GLUCOSE_UNITS, type GlucoseUnit, roundForUnit, toMgdl } from "@/lib/cgm/units";
import { TARGET_GROUPS, type TargetGroup } from "@/lib/metrics/targets";

/**
 * A patient's view preferences and the rules for changing them. The target range is kept in mg/dL;
 * the form shows and takes it in the unit on screen, so conversion happens here, once.
 */
export const TARGET_DEFAULT_MGDL = { low: 70, high: 180 } as const;
/** Bounds wide enough for every consensus target group (pregnancy 63–140 to older adults 70–180+). */
export const TARGET_LIMITS_MGDL = { lowMin: 50, lowMax: 150, highMin: 100, highMax: 300 } as const;

export interface Preferences {
  /** null: show each response in the unit the service sends. */
  unit: GlucoseUnit | null;
  targetLowMgdl: number;
  targetHighMgdl: number;
  /**
   * The consensus group whose goals judge the patient's data, as the patient chose it; null: not
   * chosen (their clinic's choice applies, else the standard goals: ./target-group.ts). Separate
   * from the target band above, which only shades the trace.
   */
  targetGroup: TargetGroup | null;
}

export const DEFAULT_PREFERENCES: Preferences = {
  unit: null,
  targetLowMgdl: TARGET_DEFAULT_MGDL.low,
  targetHighMgdl: TARGET_DEFAULT_MGDL.high,
  targetGroup: null,
};

/**
 * The form's "Goals for" value: a group, or "" for not chosen. Absent (a form of before the field,
 * or another client) leaves the stored choice as it is.
 */
export const targetGroupFieldSchema = z
  .enum(["", ...TARGET_GROUPS], {
    message: `targetGroup must be ${TARGET_GROUPS.map((g) => `"${g}"`).join(", ")} or empty (not chosen)`,
  })
  .transform((g) => (g === "" ? null : g))
  .optional();

const L = TARGET_LIMITS_MGDL;

/** The preferences form: unit "auto" or a unit; target bounds in `inputUnit` (the unit on screen). */
export const preferencesFormSchema = z
  .object({
    unit: z.enum(["auto", ...GLUCOSE_UNITS], { message: 'unit must be "auto", "mg/dL" or "mmol/L"' }),
    inputUnit: z.enum(GLUCOSE_UNITS).default("mg/dL"),
    targetLow: z.coerce.number({ message: "the low target must be a number" }),
    targetHigh: z.coerce.number({ message: "the high target must be a number" }),
    targetGroup: targetGroupFieldSchema,
  })
  .transform((f) => ({
    unit: f.unit === "auto" ? null : f.unit,
    targetGroup: f.targetGroup,
    targetLowMgdl: Math.round(toMgdl(f.targetLow, f.inputUnit)),
    targetHighMgdl: Math.round(toMgdl(f.targetHigh, f.inputUnit)),
    inputUnit: f.inputUnit,
  }))
  .superRefine((p, ctx) => {
    const show = (mgdl: number) =>
      `${roundForUnit(convertGlucose(mgdl, "mg/dL", p.inputUnit), p.inputUnit)} ${p.inputUnit}`;
    if (p.targetLowMgdl < L.lowMin || p.targetLowMgdl > L.lowMax)
      ctx.addIssue({
        code: "custom",
        path: ["targetLow"],
        message: `the low target must be between ${show(L.lowMin)} and ${show(L.lowMax)}`,
      });
    if (p.targetHighMgdl < L.highMin || p.targetHighMgdl > L.highMax)
      ctx.addIssue({
        code: "custom",
        path: ["targetHigh"],
        message: `the high target must be between ${show(L.highMin)} and ${show(L.highMax)}`,
      });
    if (p.targetLowMgdl >= p.targetHighMgdl)
      ctx.addIssue({
        code: "custom",
        path: ["targetHigh"],
        message: "the high target must be above the low target",
      });
  })
  .transform(({ inputUnit: _, ...p }): PreferencesChange => p);

/** What the preferences form changes: everything, the goals' group only when the form sent it. */
export type PreferencesChange = Omit<Preferences, "targetGroup"> & { targetGroup?: TargetGroup | null };

/**
 * The unit switch alone (the clinic's population view): the unit to show, targets left as they are.
 * A clinician's population mixes patients' units, so there is no "auto" here.
 */
export const unitFormSchema = z.object({
  unit: z.enum(GLUCOSE_UNITS, { message: 'unit must be "mg/dL" or "mmol/L"' }),
});

/** The unit to show: the patient's choice, else the data's own. */
export function displayUnit(preferences: Preferences, dataUnit: GlucoseUnit): GlucoseUnit {
  return preferences.unit ?? dataUnit;
}
