import type { Metadata } from "next";
import { buttonClass, HiddenFields, Notice, SandboxFrame } from "@/components/sandbox/SandboxFrame";
import { pageAuthorizeRequest, type SearchParams, sandboxPageUser } from "@/lib/sandbox/pages";
import { SANDBOX_USERS } from "@/lib/sandbox/users";

export const metadata: Metadata = { title: "Sign in · Sandbox" };
export const dynamic = "force-dynamic";

/** Step 1 of the authorization-code flow (spec section 5): the sandbox asks for a username only. */
export default async function SandboxLoginPage({ searchParams }: { searchParams: SearchParams }) {
  await sandboxPageUser();
  const { query, params, check } = await pageAuthorizeRequest(searchParams);
  if (!check.ok) {
    return (
      <SandboxFrame title="This sign-in link is not valid">
        <Notice tone="error">
          <p>{check.message}</p>
          <p className="mt-2">
            Nothing was sent back to the app. Ask the app's developer to check its client_id and registered
            redirect URI.
          </p>
        </Notice>
      </SandboxFrame>
    );
  }
  const loginError = query.get("login_error");
  return (
    <SandboxFrame title="Sign in to the sandbox">
      <p>
        <strong>{check.appName}</strong> asks to read your glucose data. The sandbox needs no password: choose
        a sandbox user.
      </p>
      {loginError ? <Notice tone="error">{loginError}</Notice> : null}
      <form method="post" action="/sandbox/v3/oauth2/login/submit" className="space-y-4">
        <HiddenFields values={{ ...params }} />
        <div>
          <label htmlFor="username" className="block font-medium">
            Username
          </label>
          <input
            id="username"
            name="username"
            required
            autoComplete="username"
            list="sandbox-users"
            className="mt-1 w-full rounded-md border border-slate-400 bg-white px-3 py-2 dark:bg-slate-800"
          />
          <datalist id="sandbox-users">
            {SANDBOX_USERS.map((u) => (
              <option key={u.username} value={u.username} />
            ))}
          </datalist>
        </div>
        <button type="submit" className={`${buttonClass} bg-emerald-700 text-white hover:bg-emerald-800`}>
          Sign in
        </button>
      </form>
      <section aria-labelledby="users-heading">
        <h2 id="users-heading" className="text-lg font-semibold">
          Sandbox users
        </h2>
        <ul className="mt-2 divide-y divide-emerald-200 rounded-md border border-emerald-200 bg-white dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-800">
          {SANDBOX_USERS.map((u) => (
            <li key={u.username} className="p-3">
              <form
                method="post"
                action="/sandbox/v3/oauth2/login/submit"
                className="flex items-center gap-3"
              >
                <HiddenFields values={{ ...params, username: u.username }} />
                <div className="flex-1">
                  <div className="font-medium">{u.username}</div>
                  <div className="text-sm text-slate-600 dark:text-slate-300">{u.description}</div>
                </div>
                <button
                  type="submit"
                  aria-label={`Sign in as ${u.username}`}
                  className={`${buttonClass} border border-emerald-700 text-emerald-800 dark:text-emerald-200`}
                >
                  Use
                </button>
              </form>
            </li>
          ))}
        </ul>
      </section>
    </SandboxFrame>
  );
}
