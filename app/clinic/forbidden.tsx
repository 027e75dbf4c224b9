import Link from "next/link";
import { linkClass } from "@/components/clinic/ClinicForm";
import { ClinicFrame } from "@/components/clinic/ClinicFrame";

/** 403 for a signed-in person who is not a member of any clinic: in practice, a patient. */
export default function ClinicForbidden() {
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
