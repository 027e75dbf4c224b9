/**
 * Whether the dashboard's server is running, for the commands that run the app's code outside it
 * (`npm run sync`, `npm run demo:clinic`). With the embedded database they must not start while
 * the server runs: PGlite is one process's at a time, and two processes writing one data folder
 * can corrupt it.
 *
 * The server is recognised by its health route's answer, ready (200) or still opening its
 * database (503): either way it holds the folder. Something else answering on that address is not
 * taken for it. A server started under another address than APP_URL is not seen; the README
 * says to run these commands with the configuration the server has.
 */
export async function dashboardAnswers(appUrl: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch(`${appUrl}/api/health`, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.json().catch(() => null)) as { status?: unknown } | null;
    return body?.status === "ok" || body?.status === "unavailable";
  } catch {
    return false;
  }
}

/**
 * The embedded database is in use by a running server: no DATABASE_URL (so PGlite under
 * DATA_DIR), and the dashboard answers at APP_URL.
 */
export async function embeddedDatabaseHeld(config: {
  DATABASE_URL?: string;
  APP_URL: string;
}): Promise<boolean> {
  return !config.DATABASE_URL && (await dashboardAnswers(config.APP_URL));
}
