import { TARGET_PRESETS, type TargetGroup } from "@/lib/metrics/targets";

/**
 * Whose choice of target group judges a patient's data, and where. The consensus groups
 * (lib/metrics/targets.ts) may be chosen by the patient (their preferences) and by each clinic
 * they share with (clinic_patients). The rule, as the issue puts it ("the clinic's choice wins for
 * the clinic's views and is shown to the patient"):
 *
 * - A clinic's views (its patient pages, AGP and PDF, the population view's flags, its summary
 *   API): that clinic's choice, else the patient's own, else the standard goals.
 * - The patient's own views: their own choice, else the choice of their clinics (the latest set,
 *   should several clinics have set one), else the standard goals. A patient who never chose
 *   thus sees the goals their clinic judges them by; one who chose keeps their choice, and is
 *   shown the clinic's beside it ("Your clinic has set your goals to: …").
 *
 * Pure: lib/preferences/target-group-store.ts reads the choices.
 */

export type TargetGroupSource = "patient" | "clinic" | "default";

export interface ClinicChoice {
  clinicName: string;
  group: TargetGroup;
  setAt: Date;
}

export interface ResolvedTargetGroup {
  /** The group whose goals this view judges by. */
  group: TargetGroup;
  /** Whose choice it is: the patient's, a clinic's, or nobody's (the standard goals). */
  source: TargetGroupSource;
  /** The patient's own choice; null: never chosen. */
  own: TargetGroup | null;
  /** The clinic's choice that concerns this view: the viewing clinic's, or, for the patient, their clinics' latest. */
  clinic: ClinicChoice | null;
}

/** The group for a clinic's views of its patient. */
export function targetGroupForClinic(
  clinic: ClinicChoice | null,
  own: TargetGroup | null,
): ResolvedTargetGroup {
  if (clinic) return { group: clinic.group, source: "clinic", own, clinic };
  if (own) return { group: own, source: "patient", own, clinic: null };
  return { group: "standard", source: "default", own, clinic: null };
}

/** The group for the patient's own views, and the clinic's choice to show them. */
export function targetGroupForPatient(
  own: TargetGroup | null,
  clinics: readonly ClinicChoice[],
): ResolvedTargetGroup {
  const clinic = clinics.reduce<ClinicChoice | null>(
    (latest, c) => (latest === null || c.setAt.getTime() > latest.setAt.getTime() ? c : latest),
    null,
  );
  if (own) return { group: own, source: "patient", own, clinic };
  if (clinic) return { group: clinic.group, source: "clinic", own, clinic };
  return { group: "standard", source: "default", own, clinic: null };
}

/** The group's name as the pages say it: "Pregnancy, type 1 diabetes". */
export const targetGroupLabel = (group: TargetGroup) => TARGET_PRESETS[group].label;

/** The sentence that tells the patient what their clinic set: shown wherever they choose their own. */
export function clinicChoiceSentence(clinic: ClinicChoice, own: TargetGroup | null): string {
  const set = `Your clinic (${clinic.clinicName}) has set your goals to: ${targetGroupLabel(clinic.group)}.`;
  if (own === null || own === clinic.group) return `${set} Your pages use them too.`;
  return `${set} Your own pages use the goals you chose (${targetGroupLabel(own)}); your clinic's pages use theirs.`;
}

/** Which goals a view uses and why, in words: "Goals: Pregnancy, type 1 diabetes (set by the clinic)". */
export function targetGroupSentence(resolved: ResolvedTargetGroup, viewer: "patient" | "clinic"): string {
  const label = targetGroupLabel(resolved.group);
  if (resolved.source === "default") return `Goals: ${label} (the standard goals; none chosen).`;
  if (resolved.source === "clinic")
    return `Goals: ${label} (set by ${viewer === "clinic" ? "the clinic" : "your clinic"}).`;
  return `Goals: ${label} (chosen by ${viewer === "clinic" ? "the patient" : "you"}).`;
}
