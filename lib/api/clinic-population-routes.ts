import "server-only";
import { z } from "zod";
import { THRESHOLD_FIELDS } from "@/lib/clinic/domain/triage";
import { resetTriageSettings, saveTriageSettings } from "@/lib/clinic/domain/triage-settings";
import { seeOther } from "@/lib/http/redirect";
import { formRoute, signedIn } from "./route";

/**
 * POST /api/clinic/triage (a formRoute: same origin only): an administrator sets the clinic's
 * triage thresholds, or puts back the consensus defaults (`reset`). Always a 303 back to the
 * population view: with `saved`, or with `error=<field>` that the page words (lib/clinic/domain/triage.ts); a
 * non-administrator's attempt is a 403 (lib/clinic/views/population.ts).
 */

const populationPath = (clinicId: string) => `/clinic/population?clinic=${encodeURIComponent(clinicId)}`;

export const saveTriage = formRoute(
  {
    schema: z.object({ clinicId: z.string().min(1).max(64), action: z.string().optional() }),
    user: signedIn(() => seeOther("/clinic/sign-in")),
    invalid: () => seeOther("/clinic"),
  },
  async ({ user, form: { clinicId, action }, fields }) => {
    if (action === "reset") {
      await resetTriageSettings(clinicId, user);
      return seeOther(`${populationPath(clinicId)}&saved=reset#thresholds`);
    }
    // The thresholds are read, and each refused in the form's words, by the triage rules.
    const input = Object.fromEntries(Object.keys(THRESHOLD_FIELDS).map((k) => [k, fields[k]]));
    const saved = await saveTriageSettings(clinicId, user, input);
    if (!saved.ok) return seeOther(`${populationPath(clinicId)}&error=${saved.field}#thresholds`);
    return seeOther(`${populationPath(clinicId)}&saved=1#thresholds`);
  },
);
