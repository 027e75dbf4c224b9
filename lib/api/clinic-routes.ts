import "server-only";
import type { NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { SESSION_MAX_AGE_S } from "@/lib/auth";
import { adapter, newSessionToken } from "@/lib/auth/adapter";
import { sessionCookie } from "@/lib/auth/cookies";
import { joinWithInvitation, signUpClinician, verifyClinician } from "@/lib/clinic/domain/accounts";
import { clinicPath, createInvitation, membersOf, roleIn } from "@/lib/clinic/domain/clinics";
import { createDemoClinic, demoAvailable } from "@/lib/clinic/domain/demo";
import { attemptSucceeded, reserveAttempt } from "@/lib/clinic/security/attempts";
import { clientAddress, waitInWords } from "@/lib/clinic/security/rate-limit";
import {
  firstErrorCode,
  invitationFieldsSchema,
  signInFormSchema,
  signUpFormSchema,
} from "@/lib/clinic/views/forms";
import { encodeNotice, noticeCookie } from "@/lib/clinic/views/notice";
import { errorPage } from "@/lib/http/error-page";
import { seeOther } from "@/lib/http/redirect";
import { InputError, jsonError } from "./errors";
import { anyone, formRoute, nobody, signedIn } from "./route";

/**
 * The clinician forms' routes (each a formRoute: same origin only). Every answer is a 303: on to
 * the clinic, or back to the form with ?error=<code>, which the form words (lib/clinic/views/forms.ts);
 * only a rate-limited attempt is answered in place, with 429 and Retry-After.
 *
 * Why not next-auth's credentials provider, as the issue suggests: next-auth runs it with JWT
 * sessions only, and our sessions are database rows (lib/auth/adapter.ts) that patients already
 * use, which sign-out deletes and which `auth()` / `currentUserId()` read. So, like the patient
 * sign-in (lib/auth/sign-in.ts), these routes check the password themselves and open a session
 * row with the same cookie: one kind of session for everyone, one sign-out.
 */

/** Back to the form the POST came from, with what went wrong. */
function back(formPath: string, code: string): NextResponse {
  return seeOther(`${formPath}${formPath.includes("?") ? "&" : "?"}error=${encodeURIComponent(code)}`);
}

/** 429 as a small page of its own: the form's browser shows it, and the link leads back. */
function tooManyAttempts(retryAfterS: number, formPath: string): Response {
  return tooMany(
    `Too many failed sign-in attempts. For your account's safety, try again ${waitInWords(retryAfterS)}. If you forgot your password, ask your clinic's administrator.`,
    retryAfterS,
    formPath,
  );
}

/** A 429 page a person reads: what happened, when to try again, the way back to the form. */
function tooMany(message: string, retryAfterS: number, formPath: string): Response {
  return errorPage({
    status: 429,
    title: "Too many attempts",
    message,
    back: { href: formPath, label: "Back to the form" },
    headers: { "Retry-After": String(retryAfterS) },
  });
}

/** A new session for `userId` on `response`; the browser's previous one (patient or clinician) ends. */
async function openSession(req: NextRequest, response: NextResponse, userId: string): Promise<NextResponse> {
  const cookie = sessionCookie();
  const old = req.cookies.get(cookie.name)?.value;
  if (old) await adapter.deleteSession(old);
  const sessionToken = newSessionToken();
  const expires = new Date(Date.now() + SESSION_MAX_AGE_S * 1000);
  await adapter.createSession({ sessionToken, userId, expires });
  response.cookies.set(cookie.name, sessionToken, { ...cookie.options, maxAge: SESSION_MAX_AGE_S });
  return response;
}

const joinPath = (token: string) => `/clinic/join?token=${encodeURIComponent(token)}`;
/** The form a sign-up or sign-in came from: the invitation's page, or the plain form. */
const formPathOf = (invitation: string | undefined, plain: string) =>
  invitation ? joinPath(invitation) : plain;

/** POST /api/clinic/sign-up: founds a clinic, or joins one with an invitation. */
export const signUp = formRoute(
  {
    schema: signUpFormSchema,
    user: nobody,
    invalid: ({ fields, error }) =>
      back(formPathOf(fields.invitation, "/clinic/sign-up"), firstErrorCode(error)),
  },
  async ({ req, form: { account, joining } }) => {
    const formPath = formPathOf("invitation" in joining ? joining.invitation : undefined, "/clinic/sign-up");
    // "This email is taken" tells whether an account exists: such answers count against the address.
    const ip = clientAddress(req.headers.get("x-forwarded-for"));
    const attempt = await reserveAttempt({ email: null, ip });
    if (attempt.limited) return tooManyAttempts(attempt.retryAfterS, formPath);
    const made = await signUpClinician(account, joining);
    // Only "taken" tells something about an account; every other answer gives its count back.
    if (made.ok || made.code !== "email_taken") await attemptSucceeded(attempt, { clearEmail: false });
    if (!made.ok) return back(formPath, made.code);
    return openSession(req, seeOther(clinicPath(made.clinicId)), made.userId);
  },
);

/** POST /api/clinic/sign-in, with an invitation to accept once signed in, or without. */
export const signIn = formRoute(
  {
    schema: signInFormSchema,
    user: nobody,
    invalid: ({ fields }) => back(formPathOf(fields.invitation, "/clinic/sign-in"), "credentials"),
  },
  async ({ req, form: { email, password, invitation } }) => {
    const formPath = formPathOf(invitation, "/clinic/sign-in");
    const keys = { email, ip: clientAddress(req.headers.get("x-forwarded-for")) };
    // Counted as a failure before the password is checked (lib/clinic/security/attempts.ts), so parallel
    // guesses cannot all pass the limit while their scrypt runs; a right password takes it back.
    const attempt = await reserveAttempt(keys);
    if (attempt.limited) return tooManyAttempts(attempt.retryAfterS, formPath);
    const userId = await verifyClinician(email, password);
    if (!userId) return back(formPath, "credentials");
    await attemptSucceeded(attempt, { clearEmail: true });
    if (invitation) {
      const joined = await joinWithInvitation(invitation, { id: userId, email });
      // The password was right: the person is signed in either way, and told why they did not join.
      const next = joined.ok ? clinicPath(joined.clinicId) : `${formPath}&error=${joined.code}`;
      return openSession(req, seeOther(next), userId);
    }
    return openSession(req, seeOther("/clinic"), userId);
  },
);

/** POST /api/clinic/invitations: an administrator invites a clinician; the link is shown once. */
export const invite = formRoute(
  {
    schema: invitationFieldsSchema,
    user: signedIn(() => seeOther("/clinic/sign-in")),
    invalid: ({ fields, error }) => {
      const code = firstErrorCode(error);
      return code === "clinic" ? seeOther("/clinic") : back(clinicPath(fields.clinicId ?? ""), code);
    },
  },
  async ({ user, form }) => {
    const { clinicId } = form;
    // Members who are not administrators, and everyone outside the clinic, get the same answer.
    if ((await roleIn(user, clinicId)) !== "admin") {
      throw new InputError("Only the clinic's administrators can invite clinicians.", 403, "forbidden");
    }
    if ((await membersOf(clinicId)).some((m) => m.email === form.email)) {
      return back(clinicPath(clinicId), "already_member");
    }
    const { id, token } = await createInvitation({ ...form, invitedBy: user });
    const response = seeOther(`${clinicPath(clinicId)}#invitation-link`);
    const cookie = noticeCookie();
    response.cookies.set(cookie.name, encodeNotice({ kind: "invitation", id, token }), cookie.options);
    return response;
  },
);

/**
 * POST /api/clinic/demo: a demo clinic of this visitor's own, signed in as its clinician, the
 * password shown once on the clinic page; a visitor signed in to their demo clinic already is
 * sent back to it. Anywhere but the embedded default the route does not exist (404).
 */
export const demo = formRoute({ schema: z.object({}), user: anyone }, async ({ req, user }) => {
  if (!demoAvailable()) return jsonError(404, "not_found", "There is no demo clinic on this installation.");
  const made = await createDemoClinic(user, clientAddress(req.headers.get("x-forwarded-for")));
  if ("limited" in made) {
    return tooMany(
      `Many demo clinics were made from here just now; try again ${waitInWords(made.retryAfterS)}, or create a clinic of your own.`,
      made.retryAfterS,
      "/clinic/sign-up",
    );
  }
  const response = seeOther(clinicPath(made.clinicId));
  if (made.password === null) return response;
  const cookie = noticeCookie();
  response.cookies.set(cookie.name, encodeNotice({ kind: "demo", password: made.password }), cookie.options);
  return openSession(req, response, made.userId);
});
