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
  "GET /v1/users/self/calibrations · /v2/…",
  "GET /v1/users/self/events · /v2/…",
  "GET /v1/users/self/devices · /v2/…",
  "GET /v2/users/self/dataRange",
  "POST /v1/users/self/statistics · /v2/…",
];

export default async function SandboxHome() {
  const user = await sandboxPageUser();
  return (
    <SandboxFrame title="Glucose data service sandbox">
      <p>
        A complete implementation of the glucose data service, served by this app under <code>/sandbox</code>,
        with six synthetic users whose data is live: a new reading every five minutes.
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
