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
import { currentUserId } from "@/lib/auth";
import { formErrorMessage } from "@/lib/clinic/views/forms";

export const metadata: Metadata = { title: "Clinician sign-in" };

export default async function ClinicSignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string }>;
}) {
  const { error } = await searchParams;
  const message = formErrorMessage(error);
  return (
    <ClinicFrame title="Clinician sign-in" signedIn={(await currentUserId()) !== null}>
      <form
        method="post"
        action="/api/clinic/sign-in"
        className="space-y-4"
        aria-describedby={message ? "form-error" : undefined}
      >
        <FormError message={message} />
        <Field id="email" label="Email" type="email" required maxLength={254} autoComplete="username" />
        <PasswordField />
        <button type="submit" className={primaryButtonClass}>
          Sign in
        </button>
      </form>
      <p>
        New here?{" "}
        <Link href="/clinic/sign-up" className={linkClass}>
          Create your clinic
        </Link>
        . Invited by a colleague? Open the link of your invitation.
      </p>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Patients do not need an account here:{" "}
        <Link href="/" className={linkClass}>
          sign in with your CGM account
        </Link>{" "}
        instead.
      </p>
    </ClinicFrame>
  );
}
