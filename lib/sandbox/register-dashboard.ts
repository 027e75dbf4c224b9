import "server-only";
import { localSecrets } from "@/lib/config/local-secrets";
import { env } from "@/lib/env";
import { ensureApp } from "./oauth";

/** The client_id of the dashboard's own app in the embedded sandbox, unless CGM_CLIENT_ID says otherwise. */
export const EMBEDDED_CLIENT_ID = "glucose-dashboard";
export const CALLBACK_PATH = "/api/auth/callback/cgm";

/** The dashboard's own app in the sandbox it serves, or null when it talks to another service. */
export function dashboardClientId(): string | null {
  const e = env();
  if (!e.usesEmbeddedSandbox || !e.sandboxEnabled) return null;
  return e.CGM_CLIENT_ID ?? EMBEDDED_CLIENT_ID;
}

/**
 * With the embedded sandbox, the dashboard is an app registered in it like any other: it
 * registers (or re-registers) itself at start with its redirect URI and secret.
 */
export async function registerDashboardApp(): Promise<void> {
  const clientId = dashboardClientId();
  if (!clientId) return;
  const e = env();
  await ensureApp({
    clientId,
    clientSecret: e.CGM_CLIENT_SECRET ?? localSecrets().cgmClientSecret,
    name: "Glucose Dashboard",
    redirectUris: [`${e.APP_URL}${CALLBACK_PATH}`],
  });
}
