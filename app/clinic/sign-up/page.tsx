import type { Metadata } from "next";
import Link from "next/link";
import {
  Field,
  FormError,
  linkClass,
  PasswordField,
  primaryButtonClass,
  secondaryButtonClass,
} from "@/components/clinic/ClinicForm";
import { ClinicFrame } from "@/components/clinic/ClinicFrame";
import { Panel } from "@/components/patient/Panel";
import { currentUserId } from "@/lib/auth";
import { DEMO_LIFETIME_DAYS, demoAvailable } from "@/lib/clinic/domain/demo";
import { formErrorMessage } from "@/lib/clinic/views/forms";

export const metadata: Metadata = { title: "Create your clinic" };

export default async function ClinicSignUpPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string }>;
}) {
  const { error } = await searchParams;
  const message = formErrorMessage(error);
  return (
    <ClinicFrame title="Create your clinic" signedIn={(await currentUserId()) !== null}>
      <p>
        A clinic account lets you and your colleagues review your patients&apos; glucose. You become the
        clinic&apos;s administrator and can invite other clinicians.
      </p>
      <form
        method="post"
        action="/api/clinic/sign-up"
        className="space-y-4"
        aria-describedby={message ? "form-error" : undefined}
      >
        <FormError message={message} />
        <Field id="name" label="Your name" required maxLength={120} autoComplete="name" />
        <Field id="clinicName" label="Clinic name" required maxLength={120} autoComplete="organization" />
        <Field id="email" label="Email" type="email" required maxLength={254} autoComplete="email" />
        <PasswordField newPassword />
        <button type="submit" className={primaryButtonClass}>
          Create clinic
        </button>
      </form>
      <p>
        Already have an account?{" "}
        <Link href="/clinic/sign-in" className={linkClass}>
          Sign in
        </Link>
      </p>
      {demoAvailable() && (
        <Panel title="Just looking around?" id="demo">
          <p>
            This installation uses the built-in sandbox. Create a clearly labelled demo clinic of your own,
            with a demo clinician account: you are signed in to it, and its email and password are shown to
            you once. Nobody else sees your demo clinic; it is deleted {DEMO_LIFETIME_DAYS} days after it was
            made.
          </p>
          <form method="post" action="/api/clinic/demo">
            <button type="submit" className={secondaryButtonClass}>
              Create a demo clinic
            </button>
          </form>
        </Panel>
      )}
    </ClinicFrame>
  );
}
