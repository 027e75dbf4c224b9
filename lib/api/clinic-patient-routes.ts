import "server-only";
import type { NextRequest, NextResponse } from "next/server";
import { currentUserId } from "@/lib/auth";
import { signedInPatient } from "@/lib/auth/patient";
import { zodMessage } from "@/lib/cgm/schemas";
import { recordAudit } from "@/lib/clinic/audit";
import { clinicPath, roleIn } from "@/lib/clinic/clinics";
import { firstErrorCode, patientFormSchema } from "@/lib/clinic/forms";
import { encodeNotice, noticeCookie } from "@/lib/clinic/notice";
import { clinicPatientPath } from "@/lib/clinic/patient-page";
import {
  acceptPatientInvitation,
  addPatient,
  clinicPatientFor,
  removePatient,
  renewInvitation,
  withdrawShare,
} from "@/lib/clinic/patients";
import { seeOther } from "@/lib/http/redirect";
import { targetGroupFieldSchema } from "@/lib/preferences";
import { targetGroupLabel } from "@/lib/preferences/target-group";
import { saveClinicTargetGroup } from "@/lib/preferences/target-group-store";
import { requestCalls } from "@/lib/service-client/request-calls";
import { syncNow } from "@/lib/sync/pass";
import { InputError } from "./errors";
import { formText } from "./route";

/**
 * The forms around a clinic's patients (each a formRoute: same origin only, 303 on). Clinicians add,
 * re-invite and remove patients; patients accept an invitation and withdraw a clinic's access.
 * A patient id is always checked against the signed-in person on the server; an id of another
 * clinic, or another patient's share, is answered as if it did not exist.
 */

const notFound = () =>
  new InputError(
    "This patient is not in any of your clinics. Open the patient from your clinic's list.",
    404,
    "not_found",
  );

/** The signed-in clinician, or a 401 that says how to get on. */
async function clinician(): Promise<string> {
  const userId = await currentUserId();
  if (!userId) throw new InputError("Sign in as a clinician first.", 401, "unauthenticated");
  return userId;
}

function withPatientLink(response: NextResponse, id: string, token: string): NextResponse {
  const cookie = noticeCookie();
  response.cookies.set(cookie.name, encodeNotice({ kind: "patient", id, token }), cookie.options);
  return response;
}

/** POST /api/clinic/patients: a clinician adds a patient; the invitation link is shown once. */
export async function addPatientRoute(_req: NextRequest, _ctx: unknown, form: FormData): Promise<Response> {
  const userId = await clinician();
  const clinicId = formText(form, "clinicId") ?? "";
  const parsed = patientFormSchema.safeParse({
    clinicId,
    name: formText(form, "name"),
    birthDate: formText(form, "birthDate"),
  });
  // Outside the clinic, the same answer as for a clinic that does not exist.
  if (!clinicId || (await roleIn(userId, clinicId)) === null) {
    throw new InputError("This clinic could not be found among yours.", 404, "not_found");
  }
  if (!parsed.success) {
    return seeOther(`${clinicPath(clinicId)}&patientError=${firstErrorCode(parsed.error)}#add-patient`);
  }
  const { id, token } = await addPatient({ ...parsed.data, by: userId });
  return withPatientLink(seeOther(clinicPath(clinicId, "#patient-link")), id, token);
}

type Params = { params: Promise<Record<string, string | string[]>> };
const patientIdOf = async (ctx: Params) => {
  const id = (await ctx.params).patientId;
  return typeof id === "string" ? id : "";
};

/** POST /api/clinic/patients/:patientId/invitation: a new link (the old one stops working). */
export async function renewInvitationRoute(_req: NextRequest, ctx: Params): Promise<Response> {
  const userId = await clinician();
  const access = await clinicPatientFor(userId, await patientIdOf(ctx));
  if (!access) throw notFound();
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
}

/** POST /api/clinic/patients/:patientId/remove: the patient leaves the clinic's list and access ends. */
export async function removePatientRoute(_req: NextRequest, ctx: Params): Promise<Response> {
  const userId = await clinician();
  const access = await clinicPatientFor(userId, await patientIdOf(ctx));
  if (!access) throw notFound();
  await removePatient(access.clinicId, access.patient.id, userId);
  return seeOther(`${clinicPath(access.clinicId)}&removed=1#patients`);
}

/**
 * POST /api/clinic/patients/:patientId/sync: a clinician brings a sharing patient's synced data up
 * to date now (before a visit, or just after the patient accepted) instead of waiting for the next
 * background pass. One pass over this one connection, under the same lease as every other sync,
 * so it never runs twice at once; the answer says how it went on the clinic page. Its calls are
 * the clinician's, like their reads of a patient's data: charged to their budget (429 past it),
 * stopped when their browser goes, and never waiting long for the app's shared rate limit (503
 * with Retry-After when it is used up).
 */
export async function syncPatientRoute(req: NextRequest, ctx: Params): Promise<Response> {
  const userId = await clinician();
  const access = await clinicPatientFor(userId, await patientIdOf(ctx));
  if (!access) throw notFound();
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
  await recordAudit({
    clinicId: access.clinicId,
    actorUserId: userId,
    clinicPatientId: access.patient.id,
    action: "patient.synced",
    detail: result,
  });
  return seeOther(
    `${clinicPath(access.clinicId)}&synced=${result}&patient=${encodeURIComponent(access.patient.id)}#patients`,
  );
}

/**
 * POST /api/clinic/patients/:patientId/target-group (a form: `targetGroup`, a group or "" for the
 * patient's own choice): the goals the clinic judges the patient by, in its pages and its triage
 * (lib/preferences/target-group.ts). Any clinician of the clinic may set it, as they may add a
 * patient; it is written to the audit log, and the patient is shown it.
 */
export async function setTargetGroupRoute(_req: NextRequest, ctx: Params, form: FormData): Promise<Response> {
  const userId = await clinician();
  const access = await clinicPatientFor(userId, await patientIdOf(ctx));
  if (!access) throw notFound();
  const parsed = targetGroupFieldSchema.safeParse(form.get("targetGroup") ?? undefined);
  if (!parsed.success || parsed.data === undefined) {
    throw new InputError(
      parsed.success
        ? 'Choose the goals: targetGroup must be "standard", "olderHighRisk", "pregnancy" or empty (the patient\'s own choice).'
        : zodMessage(parsed.error.issues),
    );
  }
  const group = parsed.data;
  await saveClinicTargetGroup(access.patient.id, group);
  await recordAudit({
    clinicId: access.clinicId,
    actorUserId: userId,
    clinicPatientId: access.patient.id,
    action: "patient.target_group_set",
    detail: group ? `${group}: ${targetGroupLabel(group)}` : "cleared: the patient's own choice applies",
  });
  return seeOther(`${clinicPatientPath(access.patient.id)}?goals=saved#goals`);
}

const sharePath = (token: string, error?: string) =>
  `/share?token=${encodeURIComponent(token)}${error ? `&error=${error}` : ""}`;

/**
 * POST /api/sharing/accept: the signed-in patient allows the invitation's clinic to see their data.
 * Without a usable connection the patient is sent back to the invitation page, which offers to
 * connect first (the dashboard's own sign-in), so no tokens are stored any other way.
 */
export async function acceptShareRoute(_req: NextRequest, _ctx: unknown, form: FormData): Promise<Response> {
  const token = formText(form, "token") ?? "";
  const patient = await signedInPatient();
  const connection = patient?.connection;
  if (!patient || connection?.status !== "active") return seeOther(sharePath(token, "connect_first"));
  const accepted = await acceptPatientInvitation(token, {
    userId: patient.userId,
    connectionId: connection.id,
  });
  if (!accepted.ok) return seeOther(sharePath(token, accepted.code));
  return seeOther(`/sharing?accepted=${encodeURIComponent(accepted.clinicId)}`);
}

/** POST /api/sharing/:shareId/withdraw: the patient ends a clinic's access. */
export async function withdrawShareRoute(_req: NextRequest, ctx: Params): Promise<Response> {
  const userId = await currentUserId();
  if (!userId) throw new InputError("Sign in to manage who sees your data.", 401, "unauthenticated");
  const shareId = (await ctx.params).shareId;
  const done = typeof shareId === "string" && (await withdrawShare(userId, shareId));
  if (!done) {
    throw new InputError(
      "No clinic has access under this id (it may be withdrawn already).",
      404,
      "not_found",
    );
  }
  return seeOther("/sharing?withdrawn=1");
}
