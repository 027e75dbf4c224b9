import type { Metadata } from "next";
import { cookies } from "next/headers";
import Link from "next/link";
import { forbidden, redirect } from "next/navigation";
import {
  Field,
  FormError,
  inputClass,
  OneTimeLink,
  primaryButtonClass,
} from "@/components/clinic/ClinicForm";
import { ClinicFrame, DemoBadge } from "@/components/clinic/ClinicFrame";
import { ClinicPatientsPanel } from "@/components/clinic/ClinicPatientsPanel";
import { Panel } from "@/components/patient/Panel";
import { RecordTable } from "@/components/records/RecordTable";
import { currentUserId } from "@/lib/auth";
import { MS_PER_DAY } from "@/lib/cgm/datetime";
import {
  clinicsOf,
  invitationLink,
  invitationMatches,
  membersOf,
  pendingInvitations,
} from "@/lib/clinic/domain/clinics";
import { DEMO_LIFETIME_DAYS } from "@/lib/clinic/domain/demo";
import { patientInvitationLink, patientInvitationMatches, patientsOf } from "@/lib/clinic/domain/patients";
import { formErrorMessage } from "@/lib/clinic/views/forms";
import { invitationQrSvg } from "@/lib/clinic/views/invitation-qr";
import { decodeNotice, noticeCookie } from "@/lib/clinic/views/notice";

export const metadata: Metadata = { title: "Clinic" };

const daysLeft = (expires: Date) => {
  const days = Math.ceil((expires.getTime() - Date.now()) / MS_PER_DAY);
  return days <= 1 ? "expires within a day" : `expires in ${days} days`;
};
const ROLE_LABEL = { admin: "Administrator", clinician: "Clinician" } as const;

/**
 * The clinic's home: its members, and for administrators the invitations. Only members see it: a
 * patient's session gets 403 (app/clinic/forbidden.tsx), nobody's session gets another clinic's.
 */
export default async function ClinicPage({
  searchParams,
}: {
  searchParams: Promise<{
    clinic?: string;
    error?: string;
    patientError?: string;
    removed?: string;
    synced?: string;
    patient?: string;
  }>;
}) {
  const userId = await currentUserId();
  if (!userId) redirect("/clinic/sign-in");
  const memberships = await clinicsOf(userId);
  if (memberships.length === 0) forbidden();
  const params = await searchParams;
  const clinic = memberships.find((c) => c.clinicId === params.clinic) ?? memberships[0];
  if (!clinic) forbidden();
  const isAdmin = clinic.role === "admin";
  const [members, pending, patients] = await Promise.all([
    membersOf(clinic.clinicId),
    isAdmin ? pendingInvitations(clinic.clinicId) : Promise.resolve([]),
    patientsOf(clinic.clinicId),
  ]);
  const notice = decodeNotice((await cookies()).get(noticeCookie().name)?.value);
  const created =
    notice?.kind === "invitation" && isAdmin ? pending.find((p) => p.id === notice.id) : undefined;
  const newLink =
    created && notice?.kind === "invitation" && (await invitationMatches(notice.id, notice.token))
      ? { link: invitationLink(notice.token), expires: daysLeft(created.expiresAt) }
      : null;
  const invited = notice?.kind === "patient" ? patients.find((p) => p.id === notice.id) : undefined;
  const newPatientLink =
    invited?.inviteExpiresAt &&
    notice?.kind === "patient" &&
    (await patientInvitationMatches(notice.id, notice.token))
      ? {
          name: invited.name,
          link: patientInvitationLink(notice.token),
          expires: daysLeft(invited.inviteExpiresAt),
          qrSvg: await invitationQrSvg(patientInvitationLink(notice.token)),
        }
      : null;
  const demoPassword = notice?.kind === "demo" && clinic.demo ? notice.password : null;
  const ownEmail = members.find((m) => m.userId === userId)?.email;
  const error = formErrorMessage(params.error);

  return (
    <ClinicFrame title={clinic.name} signedIn wide badge={clinic.demo ? <DemoBadge /> : undefined}>
      {memberships.length > 1 && (
        <nav aria-label="Your clinics">
          <ul className="flex flex-wrap gap-2">
            {memberships.map((c) => (
              <li key={c.clinicId}>
                <Link
                  href={`/clinic?clinic=${encodeURIComponent(c.clinicId)}`}
                  aria-current={c.clinicId === clinic.clinicId ? "page" : undefined}
                  className="inline-block rounded-full border border-slate-300 px-3 py-1 text-sm aria-[current=page]:border-blue-700 aria-[current=page]:font-semibold dark:border-slate-700 dark:aria-[current=page]:border-blue-400"
                >
                  {c.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {demoPassword && (
        <Panel title="Your demo clinic is ready" id="demo-created">
          <p>
            This demo clinic is yours alone, and it is deleted {DEMO_LIFETIME_DAYS} days after it was made.
            You are signed in as its clinician. To sign in again later, use this email and password; the
            password is shown only now:
          </p>
          <dl className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-2">
            <dt>Email</dt>
            <dd>
              <code
                data-testid="demo-email"
                className="rounded bg-slate-100 px-2 py-1 break-all dark:bg-slate-800"
              >
                {ownEmail}
              </code>
            </dd>
            <dt>Password</dt>
            <dd>
              <code
                data-testid="demo-password"
                className="rounded bg-slate-100 px-2 py-1 text-lg dark:bg-slate-800"
              >
                {demoPassword}
              </code>
            </dd>
          </dl>
        </Panel>
      )}
      <nav aria-label="Clinic pages" className="flex flex-wrap gap-3 text-sm">
        <Link
          className="font-medium underline"
          href={`/clinic/population?clinic=${encodeURIComponent(clinic.clinicId)}`}
        >
          Population: who needs attention
        </Link>
        {isAdmin && (
          <Link
            className="font-medium underline"
            href={`/clinic/audit?clinic=${encodeURIComponent(clinic.clinicId)}`}
          >
            Audit log
          </Link>
        )}
      </nav>
      {params.removed && (
        <p
          role="status"
          className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 dark:border-emerald-800 dark:bg-emerald-950"
        >
          The patient was removed; the clinic no longer has access to their data.
        </p>
      )}
      <ClinicPatientsPanel
        clinicId={clinic.clinicId}
        patients={patients}
        newLink={newPatientLink}
        error={formErrorMessage(params.patientError)}
        synced={params.synced && params.patient ? { patientId: params.patient, result: params.synced } : null}
      />
      <Panel title="Members" id="members">
        {/* Below 480 px each member is a block: the name, then email and role labelled (stack-narrow). */}
        <RecordTable caption={`Clinicians of ${clinic.name}`} captionHidden fitWidth testId="members">
          <thead>
            <tr className="border-b border-slate-200 dark:border-slate-700">
              <th scope="col" className="py-2 pr-4 font-semibold">
                Name
              </th>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Email
              </th>
              <th scope="col" className="py-2 font-semibold">
                Role
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.userId} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <th scope="row" className="py-2 pr-4 text-left font-normal">
                  {m.name ?? "—"}
                  {m.userId === userId && (
                    <span className="font-normal text-slate-600 dark:text-slate-400"> (you)</span>
                  )}
                </th>
                <td data-label="Email" className="py-2 pr-4 break-all">
                  {m.email ?? "—"}
                </td>
                <td data-label="Role" className="py-2">
                  {ROLE_LABEL[m.role]}
                </td>
              </tr>
            ))}
          </tbody>
        </RecordTable>
      </Panel>
      {isAdmin && (
        <Panel title="Invite a clinician" id="invite">
          {newLink && (
            <OneTimeLink
              id="invitation-link"
              inputId="new-invitation-link"
              testId="invitation-link"
              label="Invitation link"
              link={newLink.link}
            >
              Invitation created. Copy this link and send it to your colleague: it is shown only now, works
              once, and {newLink.expires}.
            </OneTimeLink>
          )}
          <form
            method="post"
            action="/api/clinic/invitations"
            className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end"
          >
            <input type="hidden" name="clinicId" value={clinic.clinicId} />
            <div className="sm:col-span-3">
              <FormError message={error} />
            </div>
            <Field id="email" label="Their email" type="email" required maxLength={254} autoComplete="off" />
            <div>
              <label htmlFor="role" className="block font-medium">
                Role
              </label>
              <select id="role" name="role" defaultValue="clinician" className={inputClass}>
                <option value="clinician">Clinician</option>
                <option value="admin">Administrator</option>
              </select>
            </div>
            <button type="submit" className={primaryButtonClass}>
              Create invitation
            </button>
          </form>
          <h3 className="font-semibold">Pending invitations</h3>
          {pending.length === 0 ? (
            <p data-testid="no-pending">None.</p>
          ) : (
            <ul data-testid="pending-invitations" className="divide-y divide-slate-100 dark:divide-slate-800">
              {pending.map((p) => (
                <li key={p.id} className="flex flex-wrap justify-between gap-x-4 py-2 text-sm">
                  <span className="break-all">{p.email}</span>
                  <span className="text-slate-600 dark:text-slate-400">
                    {ROLE_LABEL[p.role]}, {daysLeft(p.expiresAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      )}
    </ClinicFrame>
  );
}
