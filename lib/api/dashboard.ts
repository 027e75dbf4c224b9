import "server-only";
import { z } from "zod";
import { safeReturnTo } from "@/lib/auth/return-to";
import { zodMessage } from "@/lib/cgm";
import { loadOverview } from "@/lib/dashboard/overview";
import { TRACE_RANGES } from "@/lib/dashboard/overview-model";
import { seeOther } from "@/lib/http/redirect";
import { preferencesFormSchema, unitFormSchema } from "@/lib/preferences";
import { preferencesOf, savePreferences, saveUnit } from "@/lib/preferences/store";
import { InputError, jsonError } from "./errors";
import { formRoute, type PatientContext, signedIn } from "./route";

const rangeSchema = z.enum(Object.keys(TRACE_RANGES) as [keyof typeof TRACE_RANGES], {
  message: `range must be one of ${Object.keys(TRACE_RANGES).join(", ")}`,
});

/** GET /api/dashboard/overview?range=24h: the overview the dashboard page draws. */
export async function overviewRead({ req, userId, connection, targetGroup }: PatientContext) {
  const range = rangeSchema.safeParse(req.nextUrl.searchParams.get("range") ?? "24h");
  if (!range.success) throw new InputError(zodMessage(range.error.issues));
  // Read once: the goals depend on the patient's own choice among them.
  const preferences = await preferencesOf(userId);
  const goals = await targetGroup(preferences);
  const overview = await loadOverview(connection, preferences, range.data, goals.group);
  return { overview };
}

/**
 * POST /api/preferences (a form): unit and target range. The page checks the form with the same
 * schema before sending, so the 400 is for requests that did not come from it.
 */
export const savePreferencesForm = preferencesRoute(preferencesFormSchema, savePreferences);

/** POST /api/preferences/unit (a form): the unit alone, from the clinic's population view. */
export const saveUnitForm = preferencesRoute(unitFormSchema, (userId, { unit }) => saveUnit(userId, unit));

function preferencesRoute<T>(formSchema: z.ZodType<T>, save: (userId: string, value: T) => Promise<void>) {
  return formRoute(
    {
      schema: formSchema,
      user: signedIn(() => jsonError(401, "unauthenticated", "Sign in to change your preferences.")),
    },
    async ({ user, form, fields }) => {
      await save(user, form);
      return seeOther(safeReturnTo(fields.returnTo));
    },
  );
}
