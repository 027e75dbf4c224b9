import "server-only";
import { parseSaveBody } from "@/lib/reports/statistics-windows";
import { saveStatisticsWindows, statisticsWindowsOf } from "@/lib/reports/statistics-windows-store";
import { InputError } from "./errors";
import type { PatientContext } from "./route";

const MAX_BODY_CHARS = 64 * 1024;

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
  const text = await req.text();
  if (!text.trim()) throw new InputError("A JSON request body is required.");
  // A dozen windows fit in a few kilobytes; anything far larger is not from the editor.
  if (text.length > MAX_BODY_CHARS) throw new InputError("The request body is too large.", 413, "too_large");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new InputError("The request body is not valid JSON.");
  }
  const parsed = parseSaveBody(raw);
  if (!parsed.ok) throw new InputError(parsed.message);
  await saveStatisticsWindows(userId, parsed.windows);
  return { windows: parsed.windows, saved: true };
}
