import "server-only";
import { eq } from "drizzle-orm";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { db, schema } from "@/lib/db";
import { parseTargetGroup } from "@/lib/metrics/targets";
import { DEFAULT_PREFERENCES, type Preferences, type PreferencesChange } from "./schema";

/** A user's preferences, or the defaults when they never changed them. */
export async function preferencesOf(userId: string): Promise<Preferences> {
  const [row] = await (await db())
    .select()
    .from(schema.userPreferences)
    .where(eq(schema.userPreferences.userId, userId));
  if (!row) return DEFAULT_PREFERENCES;
  return {
    unit: row.unit,
    targetLowMgdl: row.targetLowMgdl,
    targetHighMgdl: row.targetHighMgdl,
    targetGroup: parseTargetGroup(row.targetGroup),
  };
}

export async function savePreferences(userId: string, preferences: PreferencesChange): Promise<void> {
  const { targetGroup, ...rest } = preferences;
  const values = { ...rest, ...(targetGroup === undefined ? {} : { targetGroup }), updatedAt: new Date() };
  await (await db())
    .insert(schema.userPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: schema.userPreferences.userId, set: values });
}

/** Sets the unit only, keeping the target range (the defaults for a user who never chose one). */
export async function saveUnit(userId: string, unit: GlucoseUnit): Promise<void> {
  const updatedAt = new Date();
  await (await db())
    .insert(schema.userPreferences)
    .values({ userId, unit, updatedAt })
    .onConflictDoUpdate({ target: schema.userPreferences.userId, set: { unit, updatedAt } });
}
