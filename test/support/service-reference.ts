import { inject } from "vitest";
import { type DashboardSession, signIn } from "./dashboard-client";
import { serviceReader } from "./sandbox-client";

export { serviceReader };

/** The API version the suites' server reads the service with (test/http/global-setup.ts). */
export const apiVersion = (): "v2" | "v3" => inject("apiVersion");

/**
 * A proxy path (`/api/cgm/…`) the server serves in its mode, for tests that only need a data path
 * of the service to read through the dashboard: with v3 only v3 paths are served.
 */
export const dataPath = (name: "egvs" | "events" | "calibrations" | "devices" | "dataRange") =>
  `${apiVersion()}/users/self/${name}`;

type Reader = Awaited<ReturnType<typeof serviceReader>>;
const readers = new WeakMap<DashboardSession, Reader>();

/** Signs `username` in to the dashboard, with a reader of the same user's data at the service. */
export async function signInWithService(base: string, username: string): Promise<DashboardSession> {
  const [session, reader] = await Promise.all([signIn(base, username), serviceReader(base, username)]);
  readers.set(session, reader);
  return session;
}

/** The service reader of a session signed in with `signInWithService`. */
export function serviceOf(session: DashboardSession): Reader {
  const reader = readers.get(session);
  if (!reader) throw new Error("serviceOf: sign in with signInWithService");
  return reader;
}

/** Saves the patient's display unit, as the settings form does. */
export async function chooseUnit(base: string, session: DashboardSession, unit: "mg/dL" | "mmol/L") {
  const res = await fetch(`${base}/api/preferences/unit`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: session.cookie, Origin: base },
    body: new URLSearchParams({ unit, returnTo: "/dashboard" }),
  });
  if (res.status !== 303) throw new Error(`unit: ${res.status}`);
}
