import "server-only";
import type { NextRequest } from "next/server";
import { currentUserId } from "@/lib/auth";
import { resetTriageSettings, saveTriageSettings } from "@/lib/clinic/population";
import { THRESHOLD_FIELDS } from "@/lib/clinic/triage";
import { seeOther } from "@/lib/http/redirect";

/**
 * POST /api/clinic/triage (a formRoute: same origin only): an administrator sets the clinic's
 * triage thresholds, or puts back the consensus defaults (`reset`). Always a 303 back to the
 * population view: with `saved`, or with `error=<field>` that the page words (lib/clinic/triage.ts); a
 * non-administrator's attempt is a 403 (lib/clinic/population.ts).
 */

const populationPath = (clinicId: string) => `/clinic/population?clinic=${encodeURIComponent(clinicId)}`;

export async function saveTriage(_req: NextRequest, _ctx: unknown, form: FormData): Promise<Response> {
  const userId = await currentUserId();
  if (!userId) return seeOther("/clinic/sign-in");
  const clinicId = form.get("clinicId");
  if (typeof clinicId !== "string" || clinicId === "" || clinicId.length > 64) return seeOther("/clinic");
  if (form.get("action") === "reset") {
    await resetTriageSettings(clinicId, userId);
    return seeOther(`${populationPath(clinicId)}&saved=reset#thresholds`);
  }
  const input = Object.fromEntries(Object.keys(THRESHOLD_FIELDS).map((k) => [k, form.get(k) ?? undefined]));
  const saved = await saveTriageSettings(clinicId, userId, input);
  if (!saved.ok) return seeOther(`${populationPath(clinicId)}&error=${saved.field}#thresholds`);
  return seeOther(`${populationPath(clinicId)}&saved=1#thresholds`);
}
