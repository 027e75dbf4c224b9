import "server-only";
import { cookies } from "next/headers";
import type { NextRequest } from "next/server";
import { cookieSecurity, sessionCookie } from "@/lib/auth/cookies";
import { localSecrets } from "@/lib/platform/config/local-secrets";
import { env } from "@/lib/platform/env";
import { signPdfMarker, verifyPdfMarker } from "./pdf-render-marker";

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

/**
 * The cookie for a render without a request (a clinic day's, lib/clinic/clinic-day/render.ts):
 * made for the short session the runner opens for that one render.
 */
export function pdfRenderCookieForSession(
  sessionToken: string,
  patientId: string,
): { name: string; value: string } {
  return { name: markerCookieName(), value: signPdfMarker(secret(), sessionToken, patientId, Date.now()) };
}

/** Whether the page being rendered for `patientId` is the server's own render for a PDF. */
export async function isPdfRender(patientId: string): Promise<boolean> {
  const jar = await cookies();
  return verifyPdfMarker(
    secret(),
    jar.get(markerCookieName())?.value,
    jar.get(sessionCookie().name)?.value,
    patientId,
    Date.now(),
  );
}
