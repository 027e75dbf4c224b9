import type { Metadata } from "next";
import Link from "next/link";
import {
  Field,
  FormError,
  linkClass,
  PasswordField,
  primaryButtonClass,
} from "@/components/clinic/ClinicForm";
import { ClinicFrame } from "@/components/clinic/ClinicFrame";
import { Panel } from "@/components/patient/Panel";
import { currentUserId } from "@/lib/auth";
import { describeInvitation } from "@/lib/clinic/domain/clinics";
import { formErrorMessage } from "@/lib/clinic/views/forms";

export const metadata: Metadata = { title: "Join a clinic" };

/**
 * An invitation's link: who invited whom into which clinic, then either a new account or a
 * sign-in with an existing one; both carry the token and join the clinic on success.
 */
export default async function ClinicJoinPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string; error?: string }>;
}) {
  const { token, error } = await searchParams;
  const signedIn = (await currentUserId()) !== null;
  const invitation = await describeInvitation(token);
  if (!invitation.ok) {
    return (
      <ClinicFrame title="This invitation cannot be used" signedIn={signedIn}>
        <p data-testid="invitation-problem">{formErrorMessage(invitation.code)}</p>
        <p>
          <Link href="/clinic/sign-in" className={linkClass}>
            Clinician sign-in
          </Link>
        </p>
      </ClinicFrame>
    );
  }
  const message = formErrorMessage(error);
  const role = invitation.role === "admin" ? "an administrator" : "a clinician";
  return (
    <ClinicFrame title={`Join ${invitation.clinicName}`} signedIn={signedIn}>
      <p>
        You are invited to join <strong>{invitation.clinicName}</strong> as {role}. The invitation is for{" "}
        <strong>{invitation.email}</strong>.
      </p>
      <FormError message={message} />
      <Panel title="New to the dashboard: create your account" id="join-sign-up">
        <form method="post" action="/api/clinic/sign-up" className="space-y-4">
          <input type="hidden" name="invitation" value={token} />
          <Field id="name" label="Your name" required maxLength={120} autoComplete="name" />
          <Field
            id="email"
            label="Email"
            type="email"
            required
            readOnly
            defaultValue={invitation.email}
            autoComplete="email"
          />
          <PasswordField newPassword />
          <button type="submit" className={primaryButtonClass}>
            Create account and join
          </button>
        </form>
      </Panel>
      <Panel title="Already a clinician here: sign in" id="join-sign-in">
        <form method="post" action="/api/clinic/sign-in" className="space-y-4">
          <input type="hidden" name="invitation" value={token} />
          <Field
            id="sign-in-email"
            name="email"
            label="Email"
            type="email"
            required
            defaultValue={invitation.email}
            autoComplete="username"
          />
          <PasswordField id="sign-in-password" />
          <button type="submit" className={primaryButtonClass}>
            Sign in and join
          </button>
        </form>
      </Panel>
    </ClinicFrame>
  );
}
