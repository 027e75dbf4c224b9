import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { db, schema } from "@/lib/db";
import { DEFAULT_WINDOWS, parseSaveBody, requestFromWindows, type StatisticsWindow } from "./windows";

const storedSchema = z.array(
  z.object({
    name: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    urgentLowMgdl: z.number(),
    lowMgdl: z.number(),
    highMgdl: z.number(),
  }),
);

/**
 * A user's statistics windows, or the default Day/Night pair when they never saved any. A stored
 * list is checked again on the way out (with the save's own rules): a row written by an older
 * version that the service's rules no longer accept falls back to the defaults instead of breaking
 * the page with a 400 from the service.
 */
export async function statisticsWindowsOf(
  userId: string,
): Promise<{ windows: StatisticsWindow[]; saved: boolean }> {
  const [row] = await (await db())
    .select()
    .from(schema.statisticsWindows)
    .where(eq(schema.statisticsWindows.userId, userId));
  const defaults = { windows: DEFAULT_WINDOWS.map((w) => ({ ...w })), saved: false };
  if (!row) return defaults;
  const stored = storedSchema.safeParse(row.windows);
  if (!stored.success) return defaults;
  const recheck = parseSaveBody({ unit: "mg/dL", ...requestFromWindows(stored.data, "mg/dL") });
  return recheck.ok ? { windows: recheck.windows, saved: true } : defaults;
}

/** Replaces the user's windows (already checked by parseSaveBody; bounds in mg/dL). */
export async function saveStatisticsWindows(userId: string, windows: StatisticsWindow[]): Promise<void> {
  const values = { windows, updatedAt: new Date() };
  await (await db())
    .insert(schema.statisticsWindows)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: schema.statisticsWindows.userId, set: values });
}
