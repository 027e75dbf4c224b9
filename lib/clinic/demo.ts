import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import { env } from "@/lib/env";
import { signUpClinician } from "./accounts";
import { createClinic } from "./clinics";
import { hashPassword } from "./password";

/**
 * The embedded default's demo clinic: "Demo clinic" (flagged demo, and labelled so on its pages)
 * with one clinician, demo@clinic.example, whose password is new and random each time it is made,
 * and shown once. Made again, the same account gets a new password (the old one stops working).
 * Never against another service: a demo account with a known email has no place in production.
 */

export const DEMO_EMAIL = "demo@clinic.example";
export const DEMO_CLINIC_NAME = "Demo clinic";

export class DemoNotAvailable extends Error {
  constructor() {
    super(
      "The demo clinic exists only in the embedded default (the built-in sandbox of the glucose service); " +
        "this installation points to another service (CGM_API_BASE_URL), so no demo account is made.",
    );
  }
}

export const demoAvailable = () => env().usesEmbeddedSandbox;

export async function createDemoClinic(): Promise<{ userId: string; email: string; password: string }> {
  if (!demoAvailable()) throw new DemoNotAvailable();
  // 15 random bytes: 20 characters, above the 12-character minimum of every password.
  const password = randomBytes(15).toString("base64url");
  const database = await db();
  const [existing] = await database
    .select({ userId: schema.clinicianCredentials.userId })
    .from(schema.clinicianCredentials)
    .where(eq(schema.clinicianCredentials.email, DEMO_EMAIL));
  if (!existing) {
    const made = await signUpClinician(
      { name: "Demo clinician", email: DEMO_EMAIL, password },
      { clinicName: DEMO_CLINIC_NAME, demo: true },
    );
    if (made.ok) return { userId: made.userId, email: DEMO_EMAIL, password };
    // Made by a concurrent request a moment ago: reset it like any existing one.
    if (made.code !== "email_taken") throw new Error(`demo clinic: ${made.code}`);
    return createDemoClinic();
  }
  const userId = existing.userId;
  const passwordHash = await hashPassword(password);
  await database.transaction(async (tx) => {
    await tx
      .update(schema.clinicianCredentials)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(schema.clinicianCredentials.userId, userId));
    const [demoMembership] = await tx
      .select({ clinicId: schema.clinics.id })
      .from(schema.clinicMembers)
      .innerJoin(schema.clinics, eq(schema.clinics.id, schema.clinicMembers.clinicId))
      .where(and(eq(schema.clinicMembers.userId, userId), eq(schema.clinics.demo, true)));
    if (!demoMembership) await createClinic(tx, DEMO_CLINIC_NAME, userId, true);
  });
  return { userId, email: DEMO_EMAIL, password };
}
