import "server-only";
import { env } from "@/lib/platform/env";
import { localSecrets } from "./local-secrets";

/**
 * Who the dashboard is to the service: its app's client_id, secret and redirect URI. Deployment
 * configuration, below both the dashboard's client (lib/service-client) and the embedded sandbox
 * (lib/sandbox), which registers this same app at start-up: neither has to import the other.
 */

/** The client_id of the dashboard's own app in the embedded sandbox, unless CGM_CLIENT_ID says otherwise. */
export const EMBEDDED_CLIENT_ID = "glucose-dashboard";
/** The dashboard's OAuth callback route (app/api/auth/callback/cgm). */
export const CALLBACK_PATH = "/api/auth/callback/cgm";

export interface DashboardApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** The dashboard's app at the service: CGM_CLIENT_ID/CGM_CLIENT_SECRET, else the embedded defaults. */
export function dashboardApp(): DashboardApp {
  const e = env();
  return {
    clientId: e.CGM_CLIENT_ID ?? EMBEDDED_CLIENT_ID,
    clientSecret: e.CGM_CLIENT_SECRET ?? localSecrets().cgmClientSecret,
    redirectUri: `${e.APP_URL}${CALLBACK_PATH}`,
  };
}

/** The dashboard's app when the service is the embedded sandbox (served here), else null. */
export function embeddedDashboardApp(): DashboardApp | null {
  const e = env();
  return e.usesEmbeddedSandbox && e.sandboxEnabled ? dashboardApp() : null;
}
