import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, gt, inArray, lt, or, sql } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import { sha256Base64url } from "@/lib/platform/security/hash";
import { combine, LIMITS, type LimitDecision, limitDecision, WINDOW_MS } from "./rate-limit";

/**
 * The attempt store behind the limits of rate-limit.ts (failed sign-ins, demo clinics made), in the database so that every app
 * process counts the same failures.
 *
 * An attempt is counted before its password is checked, not after: checking the count and
 * recording the failure afterwards would let parallel requests for one email all pass the check
 * while their scrypt runs, so "5 per 15 minutes" would allow as many guesses as one can send at
 * once. `reserveAttempt` counts and records in one transaction under a lock per key, so of N
 * parallel attempts at most the limit get past it; a right password then takes its own row back
 * (`attemptSucceeded`). An attempt that dies between the two (a crash, a database error) stays
 * counted as a failure: the safe side for a limit.
 */

const keyHash = (kind: "email" | "ip" | "demo", value: string) => sha256Base64url(`${kind}:${value}`);

/**
 * The first key of the two-integer advisory locks that serialize the count of one key (the second
 * is the key's hashtext). Two-key advisory locks are a space of their own, apart from the
 * one-bigint lock the migrations take (lib/db/index.ts); any constant works, shared by all processes.
 */
const ATTEMPT_LOCK_SPACE = 724_519_002;

export interface AttemptKeys {
  email: string | null;
  ip: string;
}

/** Either refused (the limit is reached), or let through with the rows that count this attempt. */
export type AttemptReservation =
  | { limited: true; retryAfterS: number }
  | { limited: false; emailHash: string | null; rowIds: string[] };

/** One key an attempt counts against, with the most attempts it may have in the window. */
interface CountedKey {
  hash: string;
  limit: number;
}

/**
 * Counts the keys' recent attempts and, unless a limit is reached, records this one against each,
 * atomically. On PostgreSQL the per-key advisory transaction locks make concurrent reservations
 * of one key (from any process) wait for each other; they are taken in a fixed order (sorted
 * hashes) so two attempts sharing keys cannot deadlock. On PGlite every transaction already
 * runs alone, and the locks cost nothing.
 */
async function reserve(
  keys: readonly CountedKey[],
): Promise<{ limited: true; retryAfterS: number } | { limited: false; rowIds: string[] }> {
  const wanted = keys.map((k) => k.hash);
  const t = schema.signInFailures;
  return (await db()).transaction(async (tx) => {
    for (const k of [...wanted].sort()) {
      await tx.execute(
        sql`select pg_advisory_xact_lock(${sql.raw(String(ATTEMPT_LOCK_SPACE))}, hashtext(${k}))`,
      );
    }
    // The clock is read once the locks are held, and never before a failure already counted: an
    // attempt that read it before waiting, or a process whose clock runs behind, would otherwise
    // judge at a time earlier than failures recorded meanwhile, which limitDecision leaves out as
    // "in the future" (CI saw 6 of 12 parallel guesses let through).
    const since = new Date(Date.now() - WINDOW_MS);
    // Old attempts no longer count: removing them here keeps the table small without a scheduler.
    await tx.delete(t).where(lt(t.at, since));
    const rows = await tx
      .select({ keyHash: t.keyHash, at: t.at })
      .from(t)
      .where(and(inArray(t.keyHash, wanted), gt(t.at, since)));
    const now = new Date(Math.max(Date.now(), ...rows.map((r) => r.at.getTime())));
    const times = (hash: string) => rows.filter((r) => r.keyHash === hash).map((r) => r.at);
    const decision = combine(keys.map((k) => limitDecision(times(k.hash), now, k.limit)));
    if (decision.limited) return decision;
    const values = wanted.map((k) => ({ id: randomUUID(), keyHash: k, at: now }));
    await tx.insert(t).values(values);
    return { limited: false, rowIds: values.map((v) => v.id) };
  });
}

/** A clinician's sign-in or sign-up, counted as a failure of its address (and email) until it succeeds. */
export async function reserveAttempt(keys: AttemptKeys): Promise<AttemptReservation> {
  const emailHash = keys.email === null ? null : keyHash("email", keys.email);
  const reserved = await reserve([
    { hash: keyHash("ip", keys.ip), limit: LIMITS.ip },
    ...(emailHash ? [{ hash: emailHash, limit: LIMITS.email }] : []),
  ]);
  return reserved.limited ? reserved : { limited: false, emailHash, rowIds: reserved.rowIds };
}

/** A demo clinic made from address `ip`: counted for good (it is not taken back). */
export async function reserveDemoCreation(ip: string): Promise<LimitDecision> {
  const reserved = await reserve([{ hash: keyHash("demo", ip), limit: LIMITS.demoPerIp }]);
  return reserved.limited ? reserved : { limited: false };
}

/**
 * The attempt was not a failure after all: its own rows go. With `clearEmail` (a right password)
 * the email's whole count goes too; the address's other failures stay (it may be guessing others).
 */
export async function attemptSucceeded(
  reservation: Extract<AttemptReservation, { limited: false }>,
  { clearEmail }: { clearEmail: boolean },
): Promise<void> {
  const t = schema.signInFailures;
  const own = inArray(t.id, reservation.rowIds);
  await (await db())
    .delete(t)
    .where(clearEmail && reservation.emailHash ? or(own, eq(t.keyHash, reservation.emailHash)) : own);
}
