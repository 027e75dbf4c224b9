import "server-only";
import { and, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import { MS_PER_HOUR } from "@/lib/cgm/datetime";
import { db, schema } from "@/lib/db";
import { ApiError } from "./errors";

/**
 * Fault injection and limits, per app, kept in the database so that every process of a clinic
 * deployment sees the same faults. Off by default: an app without a row gets a well-behaved service.
 */
export const faultSettingsSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(30_000).default(0),
    failNext: z.number().int().min(0).max(10_000).default(0),
    failStatus: z
      .number()
      .int()
      .refine((s) => s === 429 || (s >= 500 && s <= 599), {
        message: "failStatus must be 429 or a 5xx status",
      })
      .default(503),
    retryAfterSeconds: z.number().int().min(0).max(3600).default(1),
    rateLimitPerHour: z.number().int().positive().nullable().default(null),
    releaseDelayMinutes: z
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(0),
  })
  .strict();
export type FaultSettings = z.infer<typeof faultSettingsSchema>;

export const NO_FAULTS: FaultSettings = faultSettingsSchema.parse({});

export async function setFaults(clientId: string, settings: FaultSettings): Promise<FaultSettings> {
  await (await db())
    .insert(schema.sandboxFaults)
    .values({ clientId, ...settings })
    .onConflictDoUpdate({ target: schema.sandboxFaults.clientId, set: settings });
  return settings;
}

export async function getFaults(clientId: string): Promise<FaultSettings> {
  const [row] = await (await db())
    .select()
    .from(schema.sandboxFaults)
    .where(eq(schema.sandboxFaults.clientId, clientId));
  return faultsOf(row ?? null);
}

/** An app's sandbox_faults row (null: none) as its settings. */
export function faultsOf(row: typeof schema.sandboxFaults.$inferSelect | null): FaultSettings {
  if (!row) return NO_FAULTS;
  const { clientId: _id, enabled: _enabled, ...settings } = row;
  return settings;
}

/**
 * Applies the app's faults (read with its bearer token, lib/sandbox/grants.ts) to one data
 * request: waits the added latency, counts the call against the hourly limit (429 past it, as the
 * real service does past 60,000 calls per app per hour) and answers the next `failNext` requests
 * with the injected status.
 */
export async function applyFaults(clientId: string, faults: FaultSettings): Promise<void> {
  if (faults === NO_FAULTS) return;
  if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs));
  const database = await db();
  if (faults.rateLimitPerHour !== null) {
    const now = Date.now();
    const hourStart = Math.floor(now / MS_PER_HOUR) * MS_PER_HOUR;
    const [counter] = await database
      .insert(schema.sandboxRateCounters)
      .values({ clientId, hourStart, calls: 1 })
      .onConflictDoUpdate({
        target: [schema.sandboxRateCounters.clientId, schema.sandboxRateCounters.hourStart],
        set: { calls: sql`${schema.sandboxRateCounters.calls} + 1` },
      })
      .returning({ calls: schema.sandboxRateCounters.calls });
    if ((counter?.calls ?? 0) > faults.rateLimitPerHour) {
      const retryAfter = Math.ceil((hourStart + MS_PER_HOUR - now) / 1000);
      throw new ApiError(
        429,
        "rate_limited",
        `The app exceeded ${faults.rateLimitPerHour} calls this hour.`,
        {
          "Retry-After": String(retryAfter),
        },
      );
    }
  }
  if (faults.failNext > 0) {
    // Decrement-if-positive in one statement, so concurrent requests fail exactly failNext times.
    const taken = await database
      .update(schema.sandboxFaults)
      .set({ failNext: sql`${schema.sandboxFaults.failNext} - 1` })
      .where(and(eq(schema.sandboxFaults.clientId, clientId), gt(schema.sandboxFaults.failNext, 0)))
      .returning({ left: schema.sandboxFaults.failNext });
    if (taken.length) {
      const headers: Record<string, string> =
        faults.failStatus === 429 ? { "Retry-After": String(faults.retryAfterSeconds) } : {};
      throw new ApiError(
        faults.failStatus,
        faults.failStatus === 429 ? "rate_limited" : "service_unavailable",
        `Injected fault: this request was answered ${faults.failStatus} on purpose.`,
        headers,
      );
    }
  }
}
