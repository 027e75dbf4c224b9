/**
 * Runs once when a server process starts: the configuration is checked (a bad value stops the
 * start with a message naming the variable), the database is migrated, and the dashboard's app is
 * registered in the embedded sandbox.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("@/lib/env");
  env();
  const { db } = await import("@/lib/db");
  await db();
  const { registerDashboardApp } = await import("@/lib/sandbox/register-dashboard");
  await registerDashboardApp();
}
