import { inject } from "vitest";
import { type DashboardSession, signIn } from "./dashboard-client";
import { bearer, connect, registerApp } from "./sandbox-client";

/**
 * The service's own answers for a sandbox user, read straight from the sandbox as another app of
 * that user (the data is the user's, whatever the app): what the suites compare the dashboard
 * with, whichever API version the dashboard reads the service with (CGM_API_VERSION). Answers
 * like `proxyGet`, for a path below /sandbox, e.g. `v2/users/self/egvs?…`.
 */
export async function serviceReader(base: string, username: string) {
  const app = await registerApp(base, "Reference reader");
  const { access_token } = await connect(base, app, username);
  return (pathAndQuery: string, init: RequestInit = {}) =>
    fetch(`${base}/sandbox/${pathAndQuery.replace(/^\//, "")}`, {
      ...init,
      headers: { ...bearer(access_token), ...(init.headers ?? {}) },
    });
}

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
