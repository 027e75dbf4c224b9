import "server-only";
import { readJson } from "@/lib/http/body";
import { saveStatisticsWindows, statisticsWindowsOf } from "@/lib/reports/statistics-by-window/store";
import { parseSaveBody } from "@/lib/reports/statistics-by-window/windows";
import { InputError } from "./errors";
import type { PatientContext } from "./route";

/** GET /api/reports/statistics-windows: the patient's windows (bounds in mg/dL), defaults when none saved. */
export async function statisticsWindowsRead({ userId }: PatientContext) {
  return statisticsWindowsOf(userId);
}

/**
 * POST /api/reports/statistics-windows, JSON `{ unit, targetRanges }` (the v2 statistics body, its
 * bounds in `unit`): checked with the service's own statistics rules and the dashboard's limits,
 * exactly as the editor checks it before sending, then stored in mg/dL. A 400 says what is wrong.
 */
export async function statisticsWindowsSave({ req, userId }: PatientContext) {
  // The shared reader bounds the body (a dozen windows fit in a few kilobytes) and its strings.
  const raw = await readJson(req);
  const parsed = parseSaveBody(raw);
  if (!parsed.ok) throw new InputError(parsed.message);
  await saveStatisticsWindows(userId, parsed.windows);
  return { windows: parsed.windows, saved: true };
}
