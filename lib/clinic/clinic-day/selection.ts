import { REPORT_PERIOD_DAYS } from "@/lib/reports/period/period";
import { FLAG_NAMES, TRIAGE_FLAGS, type TriageFlag } from "../domain/triage";
import type { PopulationRow } from "../views/population-model";

/**
 * Which patients a clinic day covers and for which period: the form's choice, read and bounded
 * here (pure), so the route, the page and the tests agree on what is allowed.
 */

/** Patients in one job: a clinic day's list, not a bulk export (each PDF is a Chromium render). */
export const CLINIC_DAY_MAX_PATIENTS = 200;
/** Jobs of one clinic not yet finished: one more waits until one of them has. */
export const CLINIC_DAY_MAX_RUNNING_JOBS = 3;

export type ClinicDaySelection =
  | { kind: "all" }
  | { kind: "tag"; tagId: string }
  | { kind: "flag"; flag: TriageFlag };

export interface ClinicDayRequest {
  selection: ClinicDaySelection;
  days: (typeof REPORT_PERIOD_DAYS)[number];
}

export type ParsedClinicDay = { ok: true; value: ClinicDayRequest } | { ok: false; message: string };

/**
 * The form's `patients` ("all", "tag:<id>" or "flag:<flag>") and `days` (one of the AGP's period
 * choices). A tag id is only checked for shape here: whether it is the clinic's is the store's.
 */
export function parseClinicDayRequest(
  patients: string | undefined,
  days: string | undefined,
): ParsedClinicDay {
  const n = Number(days);
  const period = REPORT_PERIOD_DAYS.find((d) => d === n);
  if (period === undefined) {
    return { ok: false, message: `Choose a period of ${REPORT_PERIOD_DAYS.join(", ")} days.` };
  }
  const value = (selection: ClinicDaySelection): ParsedClinicDay => ({
    ok: true,
    value: { selection, days: period },
  });
  if (patients === "all") return value({ kind: "all" });
  if (patients?.startsWith("tag:")) {
    const tagId = patients.slice(4);
    if (tagId.length > 0 && tagId.length <= 64) return value({ kind: "tag", tagId });
  }
  if (patients?.startsWith("flag:")) {
    const flag = TRIAGE_FLAGS.find((f) => f === patients.slice(5));
    if (flag) return value({ kind: "flag", flag });
  }
  return { ok: false, message: "Choose the patients: all, those with a tag, or those with a flag." };
}

/** Patients whose data the clinic can read now: the others would only fail. */
const SHARING = new Set<PopulationRow["status"]>(["connected", "reconnect_needed", "not_synced"]);

/**
 * The population's rows the selection covers, in the view's order (by name): patients who share
 * their data, carrying the flag (as the population view raises it now) or the tag (`tagged`: the
 * ids of the clinic's patients with the tag).
 */
export function chooseRows(
  rows: readonly PopulationRow[],
  selection: ClinicDaySelection,
  tagged: ReadonlySet<string> = new Set(),
): PopulationRow[] {
  return rows.filter((r) => {
    if (!SHARING.has(r.status)) return false;
    if (selection.kind === "tag") return tagged.has(r.id);
    if (selection.kind === "flag") return r.flags.includes(selection.flag);
    return true;
  });
}

/** The selection in words, for the list of jobs ("tag: pump", "flag: Low time in range"). */
export function selectionLabel(selection: ClinicDaySelection, tagName?: string): string {
  if (selection.kind === "all") return "All sharing patients";
  if (selection.kind === "tag") return `Tag: ${tagName ?? "(deleted tag)"}`;
  return `Flag: ${FLAG_NAMES[selection.flag]}`;
}

/** Why a clinic day was not made, as the form's page words it. */
export type ClinicDayRefusal = "none" | "too_many" | "busy";

export const CLINIC_DAY_REFUSALS: Record<ClinicDayRefusal, string> = {
  none: "No patient who shares their data matches this choice: choose others.",
  too_many: `More patients match than a clinic day takes (${CLINIC_DAY_MAX_PATIENTS}): choose by tag or flag.`,
  busy: `${CLINIC_DAY_MAX_RUNNING_JOBS} clinic days are still being prepared: start this one when one of them has finished.`,
};
