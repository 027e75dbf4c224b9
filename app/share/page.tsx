import type { Metadata } from "next";
import Link from "next/link";
import { FormError, primaryButtonClass } from "@/components/clinic/ClinicForm";
import { DemoBadge } from "@/components/clinic/ClinicFrame";
import { AppHeader } from "@/components/layout/AppHeader";
import { ConnectButton } from "@/components/layout/ConnectButton";
import { Panel } from "@/components/patient/Panel";
import { currentUserId } from "@/lib/auth";
import { signedInPatient } from "@/lib/auth/patient";
import { isClinician } from "@/lib/clinic/domain/clinics";
import { describePatientInvitation } from "@/lib/clinic/domain/patients";
import { formErrorMessage } from "@/lib/clinic/views/forms";
import { formatDateTimeText } from "@/lib/records/format";
import { type SharedAccount, sharedAccountOf } from "@/lib/service-client/identity";

export const metadata: Metadata = { title: "Share your CGM data with a clinic" };

/**
 * Where a clinic's invitation link leads a patient: what the clinic asks for, then the two steps,
 * connecting the CGM account at the glucose service (the dashboard's own sign-in, which brings the
 * patient back here) and allowing the clinic access (a POST, so no link can allow it for them).
 */
export default async function SharePage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string; error?: string }>;
}) {
  const { token = "", error } = await searchParams;
  const invitation = await describePatientInvitation(token);
  const userId = await currentUserId();
  const patient = userId ? await signedInPatient() : null;
  const connected = patient?.connection?.status === "active";
  const clinician = userId && !patient?.connection ? await isClinician(userId) : false;
  const here = `/share?token=${encodeURIComponent(token)}`;
  // Named before the patient confirms, so they can tell it is the account they mean to share.
  const account =
    invitation.ok && connected && !clinician && patient?.connection
      ? await sharedAccountOf(patient.connection)
      : null;

  return (
    <>
      <AppHeader signedIn={userId !== null} />
      <main className="mx-auto max-w-xl space-y-6 px-4 py-8">
        <h1 className="text-2xl font-semibold">Share your CGM data with a clinic</h1>
        {!invitation.ok ? (
          <Panel title="This invitation cannot be used" id="invitation-problem">
            <p role="alert" data-testid="share-error">
              {invitation.code === "invitation_expired"
                ? "This invitation has expired. Ask your clinic for a new link."
                : invitation.code === "invitation_used"
                  ? "This invitation has already been used. If you shared your data with the clinic, you can see it under Sharing."
                  : "This invitation link is not valid. Ask your clinic for a new one, and copy the whole link."}
            </p>
            {userId && (
              <p>
                <Link href="/sharing" className="font-medium underline">
                  See who has access to your data
                </Link>
              </p>
            )}
          </Panel>
        ) : (
          <>
            <Panel title={invitation.clinicName} id="invitation">
              {invitation.clinicDemo && <DemoBadge />}
              <p data-testid="share-invitation">
                <strong>{invitation.clinicName}</strong> invites <strong>{invitation.patientName}</strong> to
                share their CGM data with the clinic. Its clinicians will see your glucose readings, events,
                calibrations and reports, and open them without asking you each time. Every view is recorded
                in the clinic&apos;s audit log. You can withdraw the access at any time under Sharing.
              </p>
              <FormError message={formErrorMessage(error)} />
            </Panel>
            {clinician ? (
              <Panel title="You are signed in as a clinician" id="share-clinician">
                <p>
                  This link is for the patient. Sign out first, or open the link in another browser, then
                  connect the patient&apos;s CGM account.
                </p>
              </Panel>
            ) : !connected ? (
              <Panel title="Step 1 of 2: connect your CGM account" id="share-connect">
                <p>
                  You sign in at the glucose service and allow this dashboard to read your data; then you come
                  back here to allow the clinic.
                </p>
                <ConnectButton
                  label={patient?.connection ? "Reconnect your CGM account" : "Connect your CGM account"}
                  returnTo={here}
                />
              </Panel>
            ) : (
              <Panel title="Step 2 of 2: allow the clinic access" id="share-allow">
                <SharedAccountText account={account} />
                <form method="post" action="/api/sharing/accept">
                  <input type="hidden" name="token" value={token} />
                  <button type="submit" className={primaryButtonClass}>
                    Allow {invitation.clinicName} to see my data
                  </button>
                </form>
              </Panel>
            )}
          </>
        )}
      </main>
    </>
  );
}

/** Which CGM account is about to be shared: the service's account id and its newest reading. */
function SharedAccountText({ account }: { account: SharedAccount | null }) {
  return (
    <div data-testid="shared-account" className="space-y-1">
      <p>Your CGM account is connected. This is the account the clinic will see:</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium">Account at the glucose service</dt>
        <dd className="break-all" data-testid="shared-account-id">
          {account?.userId ? (
            <code>{account.userId}</code>
          ) : (
            "not named by the service (it gives no account id to this dashboard)"
          )}
        </dd>
        <dt className="font-medium">Latest reading</dt>
        <dd data-testid="shared-account-latest">
          {account?.latestReading
            ? `${formatDateTimeText(account.latestReading.displayTime)} on your receiver's clock`
            : account
              ? "none yet, or the service did not say"
              : "the service did not say"}
        </dd>
      </dl>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Not your account? Do not allow; sign out and connect the right one.
      </p>
    </div>
  );
}
