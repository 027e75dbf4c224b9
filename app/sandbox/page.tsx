import type { Metadata } from "next";
import Link from "next/link";
import { SandboxFrame } from "@/components/sandbox/SandboxFrame";
import { sandboxPageUser } from "@/lib/sandbox/pages";
import { SANDBOX_USERS } from "@/lib/sandbox/users";

export const metadata: Metadata = { title: "Sandbox" };
export const dynamic = "force-dynamic";

const ENDPOINTS = [
  "GET /v3/oauth2/login",
  "POST /v3/oauth2/token",
  "GET /v1/users/self/egvs · /v2/… · /v3/…",
  "GET /v1/users/self/calibrations · /v2/… · /v3/…",
  "GET /v1/users/self/events · /v2/… · /v3/…",
  "GET /v1/users/self/devices · /v2/… · /v3/…",
  "GET /v2/users/self/dataRange · /v3/…",
  "GET /v3/users/self/alerts",
  "POST /v1/users/self/statistics · /v2/… (v3 has none)",
];

export default async function SandboxHome() {
  const user = await sandboxPageUser();
  return (
    <SandboxFrame title="Glucose data service sandbox">
      <p>
        A complete implementation of the glucose data service, served by this app under <code>/sandbox</code>,
        with {SANDBOX_USERS.length} synthetic users whose data is live: a new reading every five minutes. API
        v3 serves every user; SandboxUser7 (G7 15-day) and SandboxUser8 (Dexcom ONE+) only through v3, as the
        service serves those devices.
        {user ? (
          <>
            {" "}
            You are signed in as <strong>{user}</strong>.
          </>
        ) : null}
      </p>
      <section aria-labelledby="users">
        <h2 id="users" className="text-lg font-semibold">
          Users
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          {SANDBOX_USERS.map((u) => (
            <li key={u.username}>
              <strong>{u.username}</strong>: {u.description}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="endpoints">
        <h2 id="endpoints" className="text-lg font-semibold">
          Endpoints
        </h2>
        <ul className="mt-2 space-y-1 font-mono text-sm">
          {ENDPOINTS.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      </section>
      <p>
        <Link className="underline" href="/sandbox/developer">
          Register an app
        </Link>{" "}
        ·{" "}
        <Link className="underline" href="/sandbox/permissions">
          Manage permissions
        </Link>
      </p>
    </SandboxFrame>
  );
}
