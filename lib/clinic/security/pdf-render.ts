import "server-only";
import { cookies } from "next/headers";
import type { NextRequest } from "next/server";
import { cookieSecurity, sessionCookie } from "@/lib/auth/cookies";
import { localSecrets } from "@/lib/platform/config/local-secrets";
import { env } from "@/lib/platform/env";
import { signPdfMarker, verifyPdfMarker } from "./pdf-render-marker";
import { signRenderGrant, verifyRenderGrant } from "./render-grant";

/** The PDF renderer's marker (pdf-render-marker.ts says why it is made this way), as a cookie. */

const markerCookieName = () => `${cookieSecurity().prefix}glucose.pdf-render`;
const secret = () => env().AUTH_SECRET ?? localSecrets().authSecret;

/**
 * The cookie to hand to the headless browser that prints `patientId`'s AGP page for the session
 * of `req`; null without a session (the page then refuses the render anyway).
 */
export function pdfRenderCookie(req: NextRequest, patientId: string): { name: string; value: string } | null {
  const session = req.cookies.get(sessionCookie().name)?.value;
  if (!session) return null;
  return { name: markerCookieName(), value: signPdfMarker(secret(), session, patientId, Date.now()) };
}

const grantCookieName = () => `${cookieSecurity().prefix}glucose.clinic-day-render`;

/**
 * The one cookie of a clinic day's render (lib/clinic/clinic-day/render.ts): a grant to print
 * `clinicPatientId`'s clinic AGP page for `clinicianId` (render-grant.ts), never a session.
 */
export function renderGrantCookie(
  clinicianId: string,
  clinicPatientId: string,
): { name: string; value: string } {
  return {
    name: grantCookieName(),
    value: signRenderGrant(secret(), { clinicianId, clinicPatientId }, Date.now()),
  };
}

/**
 * The clinician a valid render grant for `clinicPatientId` names, or null. Read only by the clinic
 * AGP page's access check: no other page or route looks at the cookie, so there it opens nothing.
 */
export async function renderGrantViewer(clinicPatientId: string): Promise<string | null> {
  const jar = await cookies();
  return verifyRenderGrant(secret(), jar.get(grantCookieName())?.value, clinicPatientId, Date.now());
}

/** Whether the page being rendered for `patientId` is the server's own render for a PDF. */
export async function isPdfRender(patientId: string): Promise<boolean> {
  if (await renderGrantViewer(patientId)) return true;
  const jar = await cookies();
  return verifyPdfMarker(
    secret(),
    jar.get(markerCookieName())?.value,
    jar.get(sessionCookie().name)?.value,
    patientId,
    Date.now(),
  );
}
