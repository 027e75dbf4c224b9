import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, inArray, like, lt } from "drizzle-orm";
import { MS_PER_DAY } from "@/lib/cgm/datetime";
import { db, schema } from "@/lib/db";
import { env } from "@/lib/platform/env";
import { reserveDemoCreation } from "../security/attempts";
import { signUpClinician } from "./accounts";
import { clinicsOf } from "./clinics";

/**
 * The embedded default's demo clinics: each visitor who asks gets a "Demo clinic" of their own
 * (flagged demo, and labelled so on its pages) with one clinician whose email and password are new
 * and random, the password shown once. Never one shared account: a second visitor would take over
 * the first one's clinic, the patients they added included. Demo clinics are deleted, with their
 * clinicians, a week after they were made, so that visitors cannot fill the database. Never
 * against another service: a demo account has no place in production.
 */

export const DEMO_CLINIC_NAME = "Demo clinic";
export const DEMO_EMAIL_DOMAIN = "clinic.example";
export const DEMO_LIFETIME_DAYS = 7;
const isDemoAccount = like(schema.clinicianCredentials.email, `demo-%@${DEMO_EMAIL_DOMAIN}`);

export class DemoNotAvailable extends Error {
  constructor() {
    super(
      "The demo clinic exists only in the embedded default (the built-in sandbox of the glucose service); " +
        "this installation points to another service (CGM_API_BASE_URL), so no demo account is made.",
    );
  }
}

export const demoAvailable = () => env().usesEmbeddedSandbox;

export interface DemoClinic {
  userId: string;
  clinicId: string;
  email: string;
  /** Null when the visitor already had this demo clinic: its password was shown when it was made. */
  password: string | null;
}

/** The demo clinic the signed-in user already runs, if they are a demo clinician. */
async function ownDemoClinic(userId: string): Promise<DemoClinic | null> {
  const [credentials] = await (await db())
    .select({ email: schema.clinicianCredentials.email })
    .from(schema.clinicianCredentials)
    .where(and(eq(schema.clinicianCredentials.userId, userId), isDemoAccount));
  const demo = credentials && (await clinicsOf(userId)).find((c) => c.demo && c.role === "admin");
  return credentials && demo
    ? { userId, clinicId: demo.clinicId, email: credentials.email, password: null }
    : null;
}

/** Demo clinics and demo clinicians older than DEMO_LIFETIME_DAYS, gone with what hangs on them. */
async function deleteExpiredDemos(): Promise<void> {
  const cutoff = new Date(Date.now() - DEMO_LIFETIME_DAYS * MS_PER_DAY);
  const database = await db();
  await database.transaction(async (tx) => {
    await tx
      .delete(schema.clinics)
      .where(and(eq(schema.clinics.demo, true), lt(schema.clinics.createdAt, cutoff)));
    const expired = tx
      .select({ userId: schema.clinicianCredentials.userId })
      .from(schema.clinicianCredentials)
      .where(and(isDemoAccount, lt(schema.clinicianCredentials.createdAt, cutoff)));
    await tx.delete(schema.users).where(inArray(schema.users.id, expired));
  });
}

/**
 * A new demo clinic and clinician for this visitor; or, for a visitor signed in as a demo
 * clinician already (`signedInUserId`), the one they have, without a new password. New ones are
 * limited per client address (`ip`, when the caller has one; lib/clinic/security/rate-limit.ts).
 */
export async function createDemoClinic(
  signedInUserId: string | null = null,
  ip: string | null = null,
): Promise<DemoClinic | { limited: true; retryAfterS: number }> {
  if (!demoAvailable()) throw new DemoNotAvailable();
  if (signedInUserId) {
    const own = await ownDemoClinic(signedInUserId);
    if (own) return own;
  }
  if (ip !== null) {
    const reserved = await reserveDemoCreation(ip);
    if (reserved.limited) return reserved;
  }
  await deleteExpiredDemos();
  // 15 random bytes: 20 characters, above the 12-character minimum of every password; 6 bytes in
  // the email make two visitors' accounts collide once in about 10^14.
  const password = randomBytes(15).toString("base64url");
  const email = `demo-${randomBytes(6).toString("hex")}@${DEMO_EMAIL_DOMAIN}`;
  const made = await signUpClinician(
    { name: "Demo clinician", email, password },
    { clinicName: DEMO_CLINIC_NAME, demo: true },
  );
  if (!made.ok) throw new Error(`demo clinic: ${made.code}`);
  return { userId: made.userId, clinicId: made.clinicId, email, password };
}
