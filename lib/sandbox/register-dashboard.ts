import "server-only";
import { embeddedDashboardApp } from "@/lib/platform/config/dashboard-app";
import { ensureApp } from "./apps";

/** The dashboard's own app in the sandbox it serves, or null when it talks to another service. */
export function dashboardClientId(): string | null {
  return embeddedDashboardApp()?.clientId ?? null;
}

/**
 * With the embedded sandbox, the dashboard is an app registered in it like any other: it
 * registers (or re-registers) itself at start (instrumentation.ts) with its redirect URI and secret.
 */
export async function registerDashboardApp(): Promise<void> {
  const app = embeddedDashboardApp();
  if (!app) return;
  await ensureApp({
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    name: "Glucose Dashboard",
    redirectUris: [app.redirectUri],
  });
}
