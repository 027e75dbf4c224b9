/**
 * npm run demo:clinic: makes a new demo clinic of the embedded default and prints its clinician's
 * email and random password, once. Runs lib code outside Next, like
 * test/support/refresh-worker.ts: `node --conditions react-server --import tsx`, where the
 * react-server condition turns `import "server-only"` into the no-op it is on the server.
 */
import { existsSync } from "node:fs";
import { db } from "@/lib/db";
import { embeddedDatabaseHeld } from "@/lib/platform/config/running-dashboard";
import { env } from "@/lib/platform/env";

/** The same .env files `next start` reads, so the command sees the configuration the app does. */
for (const file of [".env.production.local", ".env.local", ".env.production", ".env"]) {
  if (existsSync(file)) process.loadEnvFile(file);
}

async function close() {
  // drizzle keeps its driver as $client: PGlite's has close(), node-postgres's pool end().
  const { $client: client } = (await db()) as unknown as {
    $client: { close?: () => Promise<void>; end?: () => Promise<void> };
  };
  await (client.close ?? client.end)?.call(client);
}

async function main(): Promise<number> {
  const e = env();
  if (!e.usesEmbeddedSandbox) {
    console.error(
      `No demo clinic here: this installation talks to ${e.CGM_API_BASE_URL}, not to the embedded sandbox.\n` +
        "The demo clinic exists only in the embedded default; create a real clinic at /clinic/sign-up.",
    );
    return 1;
  }
  // PGlite belongs to one process at a time: a running dashboard has it open.
  if (await embeddedDatabaseHeld(e)) {
    console.error(
      `The dashboard is running at ${e.APP_URL} and holds its embedded database, which one process at a time may open.\n` +
        `Use the "Create a demo clinic" button at ${e.APP_URL}/clinic/sign-up, or stop the server and run this again.`,
    );
    return 1;
  }
  const { createDemoClinic, DEMO_CLINIC_NAME, DEMO_LIFETIME_DAYS } = await import("@/lib/clinic/domain/demo");
  // No client address here: the operator's own command is not limited like the web button.
  const made = await createDemoClinic();
  await close();
  if ("limited" in made) throw new Error("demo clinics are limited just now");
  console.log(
    [
      `${DEMO_CLINIC_NAME} is ready (a made-up clinic, labelled as such).`,
      "",
      `  Sign in at ${e.APP_URL}/clinic/sign-in`,
      `  Email:    ${made.email}`,
      `  Password: ${made.password}`,
      "",
      `The password is shown only now. Each run makes another demo clinic; each is deleted ${DEMO_LIFETIME_DAYS} days after it was made.`,
    ].join("\n"),
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`demo:clinic failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
