import "server-only";
import type { NextResponse } from "next/server";
import { z } from "zod";
import { signedInPatient } from "@/lib/auth/patient";
import { zodMessage } from "@/lib/cgm/schemas";
import { clinicPath } from "@/lib/clinic/domain/clinics";
import {
  acceptPatientInvitation,
  addPatient,
  removePatient,
  renewInvitation,
  withdrawShare,
} from "@/lib/clinic/domain/patients";
import { auditView } from "@/lib/clinic/domain/subject";
import { firstErrorCode, patientFormSchema } from "@/lib/clinic/views/forms";
import { encodeNotice, noticeCookie } from "@/lib/clinic/views/notice";
import { clinicPatientPath } from "@/lib/clinic/views/patient-page";
import { seeOther } from "@/lib/http/redirect";
import { targetGroupFieldSchema } from "@/lib/preferences";
import { targetGroupLabel } from "@/lib/preferences/target-group";
import { saveClinicTargetGroup } from "@/lib/preferences/target-group-store";
import { requestCalls } from "@/lib/service-client/request-calls";
import { syncNow } from "@/lib/sync/pass";
import { assertMember, clinician, clinicianOfPatient } from "./clinic-users";
import { InputError } from "./errors";
import { type FormUser, formRoute, signedIn } from "./route";

/**
 * The forms around a clinic's patients (each a formRoute: same origin only, 303 on). Clinicians add,
 * re-invite and remove patients; patients accept an invitation and withdraw a clinic's access.
 * A patient id is always checked against the signed-in person on the server; an id of another
 * clinic, or another patient's share, is answered as if it did not exist.
 */

function withPatientLink(response: NextResponse, id: string, token: string): NextResponse {
  const cookie = noticeCookie();
  response.cookies.set(cookie.name, encodeNotice({ kind: "patient", id, token }), cookie.options);
  return response;
}

/** POST /api/clinic/patients: a clinician adds a patient; the invitation link is shown once. */
export const addPatientRoute = formRoute(
  {
    schema: patientFormSchema,
    user: clinician,
    invalid: async ({ user, fields, error }) => {
      await assertMember(user, fields.clinicId);
      return seeOther(
        `${clinicPath(fields.clinicId ?? "")}&patientError=${firstErrorCode(error)}#add-patient`,
      );
    },
  },
  async ({ user, form }) => {
    await assertMember(user, form.clinicId);
    const { id, token } = await addPatient({ ...form, by: user });
    return withPatientLink(seeOther(clinicPath(form.clinicId, "#patient-link")), id, token);
  },
);

const noFields = z.object({});

/** POST /api/clinic/patients/:patientId/invitation: a new link (the old one stops working). */
export const renewInvitationRoute = formRoute(
  { schema: noFields, user: clinicianOfPatient },
  async ({ user: { userId, access } }) => {
    const renewed = await renewInvitation(access.clinicId, access.patient.id, userId);
    if (!renewed) {
      throw new InputError(
        "This patient already shares their data with the clinic; no new link is needed.",
        409,
        "already_shared",
      );
    }
    return withPatientLink(
      seeOther(clinicPath(access.clinicId, "#patient-link")),
      access.patient.id,
      renewed.token,
    );
  },
);

/** POST /api/clinic/patients/:patientId/remove: the patient leaves the clinic's list and access ends. */
export const removePatientRoute = formRoute(
  { schema: noFields, user: clinicianOfPatient },
  async ({ user: { userId, access } }) => {
    await removePatient(access.clinicId, access.patient.id, userId);
    return seeOther(`${clinicPath(access.clinicId)}&removed=1#patients`);
  },
);

/**
 * POST /api/clinic/patients/:patientId/sync: a clinician brings a sharing patient's synced data up
 * to date now (before a visit, or just after the patient accepted) instead of waiting for the next
 * background pass. One pass over this one connection, under the same lease as every other sync,
 * so it never runs twice at once; the answer says how it went on the clinic page. Its calls are
 * the clinician's, like their reads of a patient's data: charged to their budget (429 past it),
 * stopped when their browser goes, and never waiting long for the app's shared rate limit (503
 * with Retry-After when it is used up).
 */
export const syncPatientRoute = formRoute(
  { schema: noFields, user: clinicianOfPatient },
  async ({ req, user: { userId, access } }) => {
    const { connectionId } = access.patient;
    if (access.patient.status !== "connected" || !connectionId) {
      throw new InputError(
        `${access.patient.name} does not share their data with the clinic now, so there is nothing to sync.`,
        409,
        "not_shared",
      );
    }
    const result = await syncNow(connectionId, requestCalls(userId, req.signal));
    // The clinic's copy of the patient's data was refreshed at a clinician's request: logged with
    // how it went, like the other things a clinician does with a patient's data.
    await auditView(access, userId)("patient.synced", result);
    return seeOther(
      `${clinicPath(access.clinicId)}&synced=${result}&patient=${encodeURIComponent(access.patient.id)}#patients`,
    );
  },
);

const MISSING_GROUP =
  'Choose the goals: targetGroup must be "standard", "olderHighRisk", "pregnancy" or empty (the patient\'s own choice).';

/**
 * POST /api/clinic/patients/:patientId/target-group (a form: `targetGroup`, a group or "" for the
 * patient's own choice): the goals the clinic judges the patient by, in its pages and its triage
 * (lib/preferences/target-group.ts). Any clinician of the clinic may set it, as they may add a
 * patient; it is written to the audit log, and the patient is shown it.
 */
export const setTargetGroupRoute = formRoute(
  {
    schema: z
      .object({ targetGroup: targetGroupFieldSchema })
      .refine((f) => f.targetGroup !== undefined, { message: MISSING_GROUP }),
    user: clinicianOfPatient,
    // The field's problem alone, as the form has one field.
    invalid: ({ error }) => {
      throw new InputError(zodMessage(error.issues.map(({ message }) => ({ path: [], message }))));
    },
  },
  async ({ user: { userId, access }, form }) => {
    const group = form.targetGroup ?? null;
    await saveClinicTargetGroup(access.patient.id, group);
    await auditView(access, userId)(
      "patient.target_group_set",
      group ? `${group}: ${targetGroupLabel(group)}` : "cleared: the patient's own choice applies",
    );
    return seeOther(`${clinicPatientPath(access.patient.id)}?goals=saved#goals`);
  },
);

const sharePath = (token: string, error?: string) =>
  `/share?token=${encodeURIComponent(token)}${error ? `&error=${error}` : ""}`;

/** The signed-in patient and their active connection, else back to the invitation to connect first. */
const patientWithConnection: FormUser<{ userId: string; connectionId: string }> = async ({ fields }) => {
  const patient = await signedInPatient();
  const connection = patient?.connection;
  if (!patient || connection?.status !== "active")
    return seeOther(sharePath(fields.token ?? "", "connect_first"));
  return { userId: patient.userId, connectionId: connection.id };
};

/**
 * POST /api/sharing/accept: the signed-in patient allows the invitation's clinic to see their data.
 * Without a usable connection the patient is sent back to the invitation page, which offers to
 * connect first (the dashboard's own sign-in), so no tokens are stored any other way.
 */
export const acceptShareRoute = formRoute(
  {
    schema: z.object({ token: z.string().default("") }),
    user: patientWithConnection,
  },
  async ({ user, form: { token } }) => {
    const accepted = await acceptPatientInvitation(token, user);
    if (!accepted.ok) return seeOther(sharePath(token, accepted.code));
    return seeOther(`/sharing?accepted=${encodeURIComponent(accepted.clinicId)}`);
  },
);

/** POST /api/sharing/:shareId/withdraw: the patient ends a clinic's access. */
export const withdrawShareRoute = formRoute(
  {
    schema: noFields,
    user: signedIn(() => {
      throw new InputError("Sign in to manage who sees your data.", 401, "unauthenticated");
    }),
  },
  async ({ user, params: { shareId } }) => {
    const done = typeof shareId === "string" && (await withdrawShare(user, shareId));
    if (!done) {
      throw new InputError(
        "No clinic has access under this id (it may be withdrawn already).",
        404,
        "not_found",
      );
    }
    return seeOther("/sharing?withdrawn=1");
  },
);
