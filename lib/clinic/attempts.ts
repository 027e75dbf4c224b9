import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { and, gt, inArray, lt } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import { combine, LIMITS, type LimitDecision, limitDecision, WINDOW_MS } from "./rate-limit";

/**
 * The failed-attempt store behind the limits of rate-limit.ts, in the database so that every app
 * process counts the same failures. Two attempts racing past the check can each add a failure
 * (the limit may be overshot by the number of concurrent requests), never undercount one.
 */

const keyHash = (kind: "email" | "ip", value: string) =>
  createHash("sha256").update(`${kind}:${value}`).digest("base64url");

export interface AttemptKeys {
  email: string | null;
  ip: string;
}

function hashes(keys: AttemptKeys) {
  return {
    email: keys.email === null ? null : keyHash("email", keys.email),
    ip: keyHash("ip", keys.ip),
  };
}

export async function checkLimits(keys: AttemptKeys, now = new Date()): Promise<LimitDecision> {
  const h = hashes(keys);
  const wanted = [h.ip, ...(h.email ? [h.email] : [])];
  const rows = await (await db())
    .select({ keyHash: schema.signInFailures.keyHash, at: schema.signInFailures.at })
    .from(schema.signInFailures)
    .where(
      and(
        inArray(schema.signInFailures.keyHash, wanted),
        gt(schema.signInFailures.at, new Date(now.getTime() - WINDOW_MS)),
      ),
    );
  const times = (hash: string | null) => rows.filter((r) => r.keyHash === hash).map((r) => r.at);
  return combine([
    limitDecision(times(h.ip), now, LIMITS.ip),
    ...(h.email ? [limitDecision(times(h.email), now, LIMITS.email)] : []),
  ]);
}

export async function recordFailure(keys: AttemptKeys, now = new Date()): Promise<void> {
  const h = hashes(keys);
  const database = await db();
  // Old failures no longer count: removing them here keeps the table small without a scheduler.
  await database
    .delete(schema.signInFailures)
    .where(lt(schema.signInFailures.at, new Date(now.getTime() - WINDOW_MS)));
  await database
    .insert(schema.signInFailures)
    .values(
      [h.email, h.ip]
        .filter((k): k is string => k !== null)
        .map((k) => ({ id: randomUUID(), keyHash: k, at: now })),
    );
}

/** A successful sign-in clears its email's count (the address's stays: it may be guessing others). */
export async function clearEmailFailures(email: string): Promise<void> {
  await (await db())
    .delete(schema.signInFailures)
    .where(inArray(schema.signInFailures.keyHash, [keyHash("email", email)]));
}
