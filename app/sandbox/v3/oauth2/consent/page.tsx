import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { buttonClass, HiddenFields, Notice, SandboxFrame } from "@/components/sandbox/SandboxFrame";
import { pageAuthorizeRequest, type SearchParams, sandboxPageUser } from "@/lib/sandbox/pages";

export const metadata: Metadata = { title: "Allow access · Sandbox" };
export const dynamic = "force-dynamic";

/** The health-data sharing authorization: Allow issues a code, Deny answers error=access_denied. */
export default async function SandboxConsentPage({ searchParams }: { searchParams: SearchParams }) {
  const username = await sandboxPageUser();
  const { query, params, check } = await pageAuthorizeRequest(searchParams);
  if (!check.ok) {
    return (
      <SandboxFrame title="This sign-in link is not valid">
        <Notice tone="error">{check.message}</Notice>
      </SandboxFrame>
    );
  }
  if (!username) redirect(`/sandbox/v3/oauth2/login?${query}`);
  return (
    <SandboxFrame title="Share your glucose data?">
      <p>
        Signed in as <strong>{username}</strong>.
      </p>
      <div className="rounded-md border border-emerald-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-800">
        <p>
          <strong>{check.appName}</strong> will be able to read your glucose values, calibrations, events,
          devices and statistics, until you revoke its access under Permissions.
        </p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">Scope: offline_access</p>
      </div>
      <form method="post" action="/sandbox/v3/oauth2/consent/decision" className="flex flex-wrap gap-3">
        <HiddenFields values={{ ...params }} />
        <button
          type="submit"
          name="decision"
          value="allow"
          className={`${buttonClass} bg-emerald-700 text-white hover:bg-emerald-800`}
        >
          Allow
        </button>
        <button
          type="submit"
          name="decision"
          value="deny"
          className={`${buttonClass} border border-slate-500 bg-white text-slate-900 dark:bg-slate-800 dark:text-slate-100`}
        >
          Deny
        </button>
      </form>
    </SandboxFrame>
  );
}
