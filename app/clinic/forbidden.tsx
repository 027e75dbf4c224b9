import Link from "next/link";
import { linkClass } from "@/components/clinic/ClinicForm";
import { ClinicFrame } from "@/components/clinic/ClinicFrame";
import { currentUserId } from "@/lib/auth";
import { clinicsOf } from "@/lib/clinic/domain/clinics";

/**
 * 403 under /clinic. forbidden() carries no reason, so the page asks who is signed in: someone
 * with no clinic (in practice, a patient) is sent to their dashboard; a clinician was refused a
 * page of their clinic's administrators (the audit log), and is told that instead of being
 * called a patient.
 */
export default async function ClinicForbidden() {
  const userId = await currentUserId();
  const memberships = userId ? await clinicsOf(userId) : [];
  if (memberships.length > 0) {
    return (
      <ClinicFrame title="For the clinic's administrators" signedIn>
        <p data-testid="clinic-admins-only">
          Only the clinic&apos;s administrators can open this page. Ask one of them if you need what it shows.
        </p>
        <p>
          <Link href="/clinic" className={linkClass}>
            Back to your clinic
          </Link>
        </p>
      </ClinicFrame>
    );
  }
  return (
    <ClinicFrame title="This page is for clinicians" signedIn>
      <p data-testid="clinic-forbidden">
        You are signed in with a patient account, which has no clinic. Your own glucose is on{" "}
        <Link href="/dashboard" className={linkClass}>
          your dashboard
        </Link>
        .
      </p>
      <p>
        If you are a clinician, sign out, then{" "}
        <Link href="/clinic/sign-in" className={linkClass}>
          sign in with your clinician account
        </Link>
        .
      </p>
    </ClinicFrame>
  );
}
