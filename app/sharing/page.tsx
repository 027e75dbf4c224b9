import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { DemoBadge } from "@/components/clinic/ClinicFrame";
import { ViewerTime } from "@/components/layout/ViewerTime";
import { Panel } from "@/components/patient/Panel";
import { PatientShell } from "@/components/patient/PatientShell";
import { currentUserId } from "@/lib/auth";
import { sharesOf } from "@/lib/clinic/domain/patients";
import { env } from "@/lib/platform/env";

export const metadata: Metadata = { title: "Sharing" };

/** The clinics a patient shares their data with, each with the way to withdraw. */
export default async function SharingPage({
  searchParams,
}: {
  searchParams: Promise<{ accepted?: string; withdrawn?: string }>;
}) {
  const userId = await currentUserId();
  if (!userId) redirect("/");
  const { accepted, withdrawn } = await searchParams;
  const shares = await sharesOf(userId);
  const active = shares.filter((s) => !s.withdrawnAt);
  const past = shares.filter((s) => s.withdrawnAt);
  return (
    <PatientShell current="/sharing" title="Who sees your data">
      {accepted && (
        <p
          role="status"
          data-testid="share-accepted"
          className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 dark:border-emerald-800 dark:bg-emerald-950"
        >
          Done: the clinic can now see your CGM data.
        </p>
      )}
      {withdrawn && (
        <p
          role="status"
          data-testid="share-withdrawn"
          className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 dark:border-emerald-800 dark:bg-emerald-950"
        >
          Done: the clinic no longer has access to your data.
        </p>
      )}
      <Panel title="Clinics with access" id="clinics">
        {active.length === 0 ? (
          <p data-testid="no-shares">No clinic has access to your data.</p>
        ) : (
          <ul data-testid="shares" className="divide-y divide-slate-200 dark:divide-slate-800">
            {active.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <p className="font-medium">
                    {s.clinicName} {s.clinicDemo && <DemoBadge />}
                  </p>
                  <p className="text-sm text-slate-700 dark:text-slate-300">
                    Since {s.acceptedAt ? <ViewerTime at={s.acceptedAt.toISOString()} /> : "—"}
                  </p>
                </div>
                <form method="post" action={`/api/sharing/${encodeURIComponent(s.id)}/withdraw`}>
                  <button
                    type="submit"
                    className="rounded-md border border-red-700 px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50 dark:border-red-400 dark:text-red-300 dark:hover:bg-red-950"
                  >
                    Withdraw access of {s.clinicName}
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
        <p className="text-sm text-slate-700 dark:text-slate-300">
          A clinic gets access only through an invitation link it gives you. Withdrawing ends its access at
          once; what it already printed or downloaded stays with it.
        </p>
      </Panel>
      <WithdrawAtService />
      {past.length > 0 && (
        <Panel title="Withdrawn" id="withdrawn">
          <ul className="list-disc pl-5">
            {past.map((s) => (
              <li key={s.id}>
                {s.clinicName}, withdrawn{" "}
                {s.withdrawnAt ? <ViewerTime at={s.withdrawnAt.toISOString()} /> : ""}
              </li>
            ))}
          </ul>
        </Panel>
      )}
    </PatientShell>
  );
}

/**
 * The way to end every clinic's access that needs no session here: revoking the dashboard at the
 * service (service-spec.md §5, Revocation), after which every refresh of its tokens is refused and
 * the clinic's pages say the patient must reconnect. Under v2 the service names no account, so a
 * sign-in from another browser opens a separate account without these shares: the page says so
 * plainly. Under v3 every sign-in of the account reaches this page.
 */
function WithdrawAtService() {
  const e = env();
  const permissions = e.usesEmbeddedSandbox && e.sandboxEnabled ? `${e.APP_URL}/sandbox/permissions` : null;
  const v2 = e.CGM_API_VERSION === "v2";
  return (
    <Panel title="If you cannot open this page" id="withdraw-at-service">
      <div data-testid="withdraw-at-service" data-api-version={e.CGM_API_VERSION} className="space-y-3">
        {v2 ? (
          <p>
            This list is only in the account you are signed in to now. Signing in to this dashboard from
            another browser or device opens a separate account that does not show these clinics, so it cannot
            withdraw their access. Withdraw here, in this browser, while you can.
          </p>
        ) : (
          <p>
            Wherever you sign in to this dashboard with the same CGM account, you reach this list and can
            withdraw a clinic&apos;s access.
          </p>
        )}
        <p>
          If you can no longer sign in here, end the access at the glucose data service instead: sign in to
          your account on its website
          {permissions ? (
            <>
              {" "}
              (
              <a href={permissions} className="underline">
                its Permissions page
              </a>
              )
            </>
          ) : null}
          , open <strong>Permissions</strong> and revoke <strong>Glucose Dashboard</strong>. From then on no
          clinic receives new data of yours through this dashboard, and you sign in here again to use it. What
          a clinic already printed or downloaded stays with it.
        </p>
      </div>
    </Panel>
  );
}
