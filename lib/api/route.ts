import "server-only";
import type { NextRequest } from "next/server";
import type { z } from "zod";
import { currentUserId } from "@/lib/auth";
import { signedInPatient } from "@/lib/auth/patient";
import { ownSubject, type Refusal, type Resolved, type Subject } from "@/lib/auth/subject";
import { zodMessage } from "@/lib/cgm/schemas";
import { type ClinicRefusal, clinicSubject } from "@/lib/clinic/domain/subject";
import type { AuditAction } from "@/lib/db/schema/clinic";
import { readForm } from "@/lib/http/body";
import { forBrowser } from "@/lib/http/error-page";
import { isCrossSiteRequest } from "@/lib/http/input";
import { ownPath } from "@/lib/http/return-path";
import { env } from "@/lib/platform/env";
import { withCallContext } from "@/lib/service-client/call-gate";
import { requestCalls } from "@/lib/service-client/request-calls";
import { errorResponse, InputError, PATIENT_DATA_HEADERS, refusalResponse } from "./errors";

/**
 * Route-handler wrappers of the dashboard's API (the dub pattern): a route file is one call to
 * these; session, ownership, origin checks and error mapping happen here and nowhere else.
 */

type RouteContext = { params: Promise<Record<string, string | string[]>> };

/** What a data route's handler is given: the request and whose data it reads (lib/auth/subject.ts). */
export interface PatientContext extends Omit<Subject, "audit"> {
  req: NextRequest;
  params: Record<string, string | string[]>;
}

/**
 * A state-changing request must come from our own pages: a present Origin must be ours, and a
 * browser that says the request is cross-site is refused even without one.
 */
export function assertSameOrigin(req: Request): void {
  if (isCrossSiteRequest(req, new URL(env().APP_URL).origin)) {
    throw new InputError(
      "This action can only be started from the dashboard's own pages.",
      403,
      "forbidden_origin",
    );
  }
}

/**
 * Where the time went (session and connection lookup, the service call, encoding), from the
 * request's start `t0`, the subject's `t1` and the handler's answer `t2` to now: the benchmark
 * reads it, and so can anyone looking at a slow page in the browser's tools.
 */
function serverTiming(t0: number, t1: number, t2: number): string {
  return [
    `session;dur=${(t1 - t0).toFixed(1)}`,
    `service;dur=${(t2 - t1).toFixed(1)}`,
    `encode;dur=${(performance.now() - t2).toFixed(1)}`,
  ].join(", ");
}

/**
 * The shared body of the data routes: the subject (lib/auth/subject.ts) or the answer why none,
 * the handler, and the answer with the patient-data headers and where the time went. The
 * handler's service calls are charged to the viewer's budget and abandoned when the client
 * disconnects (lib/service-client/request-calls.ts).
 */
function dataRoute(
  resolve: (params: Record<string, string | string[]>) => Promise<Resolved<Subject, Refusal | ClinicRefusal>>,
  handler: (ctx: PatientContext) => Promise<unknown>,
  /** The clinic's audit of the view: what it is logged as, and the request's detail. */
  audited?: { action: AuditAction; detail?: (req: NextRequest) => string | null },
) {
  return async (req: NextRequest, ctx: RouteContext): Promise<Response> => {
    try {
      const t0 = performance.now();
      if (req.method !== "GET" && req.method !== "HEAD") assertSameOrigin(req);
      const params = await ctx.params;
      const resolved = await resolve(params);
      if (!resolved.ok) return refusalResponse(resolved.refusal);
      const { userId, viewerId, connection, targetGroup } = resolved.subject;
      const t1 = performance.now();
      const body = await withCallContext(requestCalls(viewerId, req.signal), () =>
        handler({ req, params, userId, viewerId, connection, targetGroup }),
      );
      // Logged once the data is ready to go: a refused or failed request showed nothing.
      if (audited) await resolved.subject.audit(audited.action, audited.detail?.(req) ?? null);
      const t2 = performance.now();
      // A file (CSV, PDF), or the service's answer relayed as it streams in, comes back as a
      // Response: it still gets the patient-data headers (its service time is then the time to
      // the service's headers, and there is nothing to encode).
      if (body instanceof Response) {
        for (const [name, value] of Object.entries(PATIENT_DATA_HEADERS)) body.headers.set(name, value);
        body.headers.set("Server-Timing", serverTiming(t0, t1, t2));
        return body;
      }
      const text = JSON.stringify(body);
      return new Response(text, {
        headers: {
          ...PATIENT_DATA_HEADERS,
          "Content-Type": "application/json",
          "Server-Timing": serverTiming(t0, t1, t2),
        },
      });
    } catch (e) {
      return errorResponse(e);
    }
  };
}

/** A route that answers with the signed-in patient's data: JSON, or a Response for files. */
export function patientRoute(handler: (ctx: PatientContext) => Promise<unknown>) {
  return dataRoute(async () => ownSubject(await signedInPatient()), handler);
}

/**
 * A route that answers with a clinic patient's data (:patientId in the path) to a clinician of that
 * patient's clinic, through the connection the patient shared; each answer is written to the
 * clinic's audit log as `action`. Anyone else gets 404, whether the id exists or not. The
 * handler's `userId` is the patient's (their preferences apply), never the clinician's.
 */
export function clinicPatientRoute(
  action: AuditAction,
  handler: (ctx: PatientContext) => Promise<unknown>,
  detail?: (req: NextRequest) => string | null,
) {
  return dataRoute(
    async (params) =>
      clinicSubject(await currentUserId(), typeof params.patientId === "string" ? params.patientId : ""),
    handler,
    { action, detail },
  );
}

/** A posted form's text fields: the first value of each name, files left out (no form of ours sends one). */
export type FormFields = Record<string, string | undefined>;

function textFields(form: FormData): FormFields {
  const fields: FormFields = {};
  for (const [name, value] of form) {
    if (typeof value === "string" && !(name in fields)) fields[name] = value;
  }
  return fields;
}

/** What a form handler is given: the request, the path's parameters and the form's text fields. */
export interface FormInput {
  req: NextRequest;
  params: Record<string, string | string[]>;
  fields: FormFields;
}

/**
 * Who sends a form, as the route needs them: the resolved user, or the answer to give instead
 * (a redirect, or an error it throws, which is answered as every error is).
 */
export type FormUser<U> = (input: FormInput) => Promise<U | Response>;

/** Anyone, signed in or not: the user's id, or null. */
export const anyone: FormUser<string | null> = () => currentUserId();

/** Only the signed-in: their id, else `signedOut`'s answer. */
export const signedIn =
  (signedOut: (input: FormInput) => Response): FormUser<string> =>
  async (input) =>
    (await currentUserId()) ?? signedOut(input);

/** A form that asks for no one: its handler does not read who sends it. */
export const nobody: FormUser<null> = async () => null;

export interface FormSpec<T, U> {
  /** The form's fields as the handler takes them, checked over its text fields. */
  schema: z.ZodType<T>;
  user: FormUser<U>;
  /** The answer to a form that does not pass the schema; by default, 400 with what to fix. */
  invalid?: (ctx: FormInput & { user: U; error: z.ZodError }) => Response | Promise<Response>;
  /** Fields that are text a person writes (a note): newlines allowed, the longer limit of lib/http/input.ts. */
  multiline?: ReadonlySet<string>;
}

/** Every field's problem in words, for a form that did not come from our pages. */
const invalidForm = ({ error }: { error: z.ZodError }): never => {
  throw new InputError(zodMessage(error.issues));
};

/**
 * A POST from one of our forms (sign-in, disconnect): same origin only, its body read through the
 * shared reader (a form, every field checked: 400 or 415 otherwise), who sends it resolved and its
 * fields checked with the route's schema; the handler answers with where to send the browser next
 * (a 303 by lib/http/redirect.ts's seeOther, so the browser follows with GET).
 */
export function formRoute<T, U>(
  { schema, user, invalid = invalidForm, multiline }: FormSpec<T, U>,
  handler: (ctx: FormInput & { user: U; form: T }) => Promise<Response>,
) {
  return async (req: NextRequest, ctx: RouteContext): Promise<Response> => {
    try {
      assertSameOrigin(req);
      const fields = textFields(await readForm(req, { multiline }));
      const input = { req, params: await ctx.params, fields };
      const who = await user(input);
      if (who instanceof Response) return who;
      const parsed = schema.safeParse(fields);
      if (!parsed.success) return await invalid({ ...input, user: who, error: parsed.error });
      return await handler({ ...input, user: who, form: parsed.data });
    } catch (e) {
      // A form is sent by a browser, which shows the answer: a page, never raw JSON.
      return forBrowser(req.headers.get("accept"), errorResponse(e), formPageOf(req));
    }
  };
}

/** The page of ours a form was sent from (its Referer), to go back to; null for another site's. */
function formPageOf(req: Request): { href: string; label: string } | undefined {
  const referer = req.headers.get("referer");
  if (!referer) return undefined;
  try {
    const url = new URL(referer);
    const path =
      url.origin === new URL(env().APP_URL).origin ? ownPath(`${url.pathname}${url.search}`) : null;
    return path ? { href: path, label: "Back to the page" } : undefined;
  } catch {
    return undefined;
  }
}

/** What a clinician's route is given: the request, the path's parameters and who asks. */
export interface ClinicianContext {
  req: NextRequest;
  params: Record<string, string | string[]>;
  userId: string;
}

/**
 * A GET of a clinician's own clinic's data that is not one patient's (a clinic day): signed in or
 * 401; the handler checks membership (NotFound, a 404, for anything of another clinic). The answer
 * (JSON, or a Response for files) is private and never stored; an error is a page for a browser.
 */
export function clinicianRoute(handler: (ctx: ClinicianContext) => Promise<unknown>) {
  return async (req: NextRequest, ctx: RouteContext): Promise<Response> => {
    try {
      const userId = await currentUserId();
      if (!userId) {
        return forBrowser(
          req.headers.get("accept"),
          refusalResponse({ reason: "signed_out", viewer: "clinician" }),
        );
      }
      const body = await handler({ req, params: await ctx.params, userId });
      if (body instanceof Response) {
        for (const [name, value] of Object.entries(PATIENT_DATA_HEADERS)) body.headers.set(name, value);
        return body;
      }
      return Response.json(body, { headers: PATIENT_DATA_HEADERS });
    } catch (e) {
      // A download link is followed by a browser: a page that says why, never raw JSON.
      return forBrowser(req.headers.get("accept"), errorResponse(e), formPageOf(req));
    }
  };
}
