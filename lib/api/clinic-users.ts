import "server-only";
import { currentUserId } from "@/lib/auth";
import { roleIn } from "@/lib/clinic/domain/clinics";
import type { ClinicPatientAccess } from "@/lib/clinic/domain/patients";
import { clinicPatientAccess } from "@/lib/clinic/domain/subject";
import { InputError } from "./errors";
import { type FormUser, signedIn } from "./route";

/**
 * Who may post a clinic's forms, one copy for every clinic form route: the signed-in clinician,
 * their clinic's patient named by :patientId, and membership of a clinic named by a field. An id
 * of another clinic is answered as if it did not exist (404); nobody signed in: a 401 that says
 * how to get on.
 */

export const patientNotFound = () =>
  new InputError(
    "This patient is not in any of your clinics. Open the patient from your clinic's list.",
    404,
    "not_found",
  );

const signInFirst = () => new InputError("Sign in as a clinician first.", 401, "unauthenticated");

/** The signed-in clinician. */
export const clinician = signedIn(() => {
  throw signInFirst();
});

/** The clinician and their clinic's patient named by :patientId (lib/clinic/domain/subject.ts), or a 401 or 404. */
export const clinicianOfPatient: FormUser<{ userId: string; access: ClinicPatientAccess }> = async ({
  params,
}) => {
  const patientId = typeof params.patientId === "string" ? params.patientId : "";
  const found = await clinicPatientAccess(await currentUserId(), patientId);
  if (found.ok) return { userId: found.viewerId, access: found.access };
  throw found.refusal.reason === "signed_out" ? signInFirst() : patientNotFound();
};

/** The clinic's id if the user is its member, else 404 as for a clinic that does not exist. */
export async function assertMember(userId: string, clinicId: string | undefined): Promise<string> {
  if (!clinicId || clinicId.length > 64 || (await roleIn(userId, clinicId)) === null) {
    throw new InputError("This clinic could not be found among yours.", 404, "not_found");
  }
  return clinicId;
}
