import type { Metadata } from "next";
import { buttonClass, HiddenFields, Notice, SandboxFrame } from "@/components/sandbox/SandboxFrame";
import { listActiveGrants } from "@/lib/sandbox/grants";
import { type SearchParams, sandboxPageUser } from "@/lib/sandbox/pages";
import { SANDBOX_USERS } from "@/lib/sandbox/users";

export const metadata: Metadata = { title: "Permissions · Sandbox" };
export const dynamic = "force-dynamic";

/** Where a sandbox user sees the apps it authorized and revokes one (spec section 5, Revocation). */
export default async function PermissionsPage({ searchParams }: { searchParams: SearchParams }) {
  const username = await sandboxPageUser();
  const { revoked } = await searchParams;
  if (!username) {
    return (
      <SandboxFrame title="Permissions">
        <p>Sign in as a sandbox user to see the apps that can read your data.</p>
        <form
          method="post"
          action="/sandbox/v3/oauth2/login/submit"
          className="flex flex-wrap items-end gap-3"
        >
          <HiddenFields values={{ next: "/sandbox/permissions" }} />
          <div>
            <label htmlFor="username" className="block font-medium">
              Username
            </label>
            <select
              id="username"
              name="username"
              className="mt-1 rounded-md border border-slate-400 bg-white px-3 py-2 dark:bg-slate-800"
            >
              {SANDBOX_USERS.map((u) => (
                <option key={u.username}>{u.username}</option>
              ))}
            </select>
          </div>
          <button type="submit" className={`${buttonClass} bg-emerald-700 text-white hover:bg-emerald-800`}>
            Sign in
          </button>
        </form>
      </SandboxFrame>
    );
  }
  const grants = await listActiveGrants(username);
  const byApp = new Map<string, { appName: string; since: Date }>();
  for (const g of grants)
    if (!byApp.has(g.clientId)) byApp.set(g.clientId, { appName: g.appName, since: g.createdAt });
  return (
    <SandboxFrame title="Permissions">
      <p>
        Signed in as <strong>{username}</strong>.
      </p>
      {typeof revoked === "string" ? <Notice tone="info">Access for {revoked} was revoked.</Notice> : null}
      {byApp.size === 0 ? (
        <p>No app can read your data.</p>
      ) : (
        <ul className="divide-y divide-emerald-200 rounded-md border border-emerald-200 bg-white dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-800">
          {[...byApp].map(([clientId, app]) => (
            <li key={clientId} className="flex flex-wrap items-center gap-3 p-4">
              <div className="flex-1">
                <div className="font-medium">{app.appName}</div>
                <div className="text-sm text-slate-600 dark:text-slate-300">
                  Authorized {app.since.toISOString().slice(0, 16).replace("T", " ")} UTC
                </div>
              </div>
              <form method="post" action="/sandbox/permissions/revoke">
                <HiddenFields values={{ client_id: clientId }} />
                <button
                  type="submit"
                  aria-label={`Revoke access for ${app.appName}`}
                  className={`${buttonClass} bg-red-700 text-white hover:bg-red-800`}
                >
                  Revoke
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <form method="post" action="/sandbox/v3/oauth2/logout">
        <button type="submit" className="underline">
          Sign out of the sandbox
        </button>
      </form>
    </SandboxFrame>
  );
}
