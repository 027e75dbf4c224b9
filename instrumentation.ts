/**
 * Runs once when a server process starts: the configuration is checked (a bad value stops the
 * start with a message naming the variable), the database is migrated, and the dashboard's app is
 * registered in the embedded sandbox. With SYNC_IN_PROCESS=on the process also runs background
 * sync passes; the first waits a minute (at most one interval), as the server is not yet
 * listening here and the embedded sandbox it may call is part of it. Unless CLINIC_DAY_IN_PROCESS
 * is off, it works the clinic days' PDFs in the background (and resumes those a restart stopped). Garbage is collected when the
 * process goes idle (lib/platform/idle-gc.ts), so its memory falls back after a large view.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("@/lib/platform/env");
  const config = env();
  const { db } = await import("@/lib/db");
  await db();
  const { registerDashboardApp } = await import("@/lib/sandbox/register-dashboard");
  await registerDashboardApp();
  const { collectGarbageWhenIdle } = await import("@/lib/platform/idle-gc");
  collectGarbageWhenIdle();
  // Clinic days' PDFs (lib/clinic/clinic-day/runner.ts): resumed here after a restart.
  if (config.CLINIC_DAY_IN_PROCESS === "on") {
    const { startClinicDayRunner } = await import("@/lib/clinic/clinic-day/runner");
    startClinicDayRunner();
  }
  if (config.SYNC_IN_PROCESS === "on") {
    const { startSyncScheduler } = await import("@/lib/sync/scheduler");
    startSyncScheduler({
      firstDelayMs: Math.min(60_000, config.SYNC_INTERVAL_MINUTES * 60_000),
      unref: true,
    });
  }
}
