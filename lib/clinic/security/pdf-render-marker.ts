import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The mark of the server's own PDF renderer on a clinic AGP page it opens, so that the page does
 * not log a "view.agp" for the render (the download is logged once, as download.agp_pdf).
 *
 * Why a signed cookie and not a header or a plain flag: anything a request merely says about
 * itself, a clinician's browser can say too (a header through a tool, a cookie set by hand), and
 * would then read patients' reports without an audit entry. The marker is an HMAC, under a key
 * derived from the app's secret, of the session token, the patient and an expiry a minute ahead:
 * only the server can make one, it is handed only to the headless browser it starts for that one
 * render (never to the person's browser), it works only with that same session and for that one
 * patient, and it runs out before it could be of use to anyone who got hold of it. Not single-use:
 * that would need a store shared by every app process (the renderer may reach another process),
 * and with the marker never leaving the server it would add nothing.
 *
 * Pure (secret and clock are parameters) so it is tested without a server; pdf-render.ts binds it
 * to the app's secret and the request's cookies.
 */

export const PDF_MARKER_TTL_MS = 60_000;

function mac(secret: string, sessionToken: string, patientId: string, expiresMs: number): Buffer {
  // A key of its own: the app's secret also signs other things, which must never verify as this.
  const key = createHmac("sha256", secret).update("clinic-agp-pdf-render-marker").digest();
  return createHmac("sha256", key).update(`${sessionToken}\n${patientId}\n${expiresMs}`).digest();
}

export function signPdfMarker(
  secret: string,
  sessionToken: string,
  patientId: string,
  nowMs: number,
): string {
  const expiresMs = nowMs + PDF_MARKER_TTL_MS;
  return `${expiresMs}.${mac(secret, sessionToken, patientId, expiresMs).toString("base64url")}`;
}

export function verifyPdfMarker(
  secret: string,
  marker: string | undefined,
  sessionToken: string | undefined,
  patientId: string,
  nowMs: number,
): boolean {
  if (!marker || !sessionToken) return false;
  const m = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(marker);
  if (!m) return false;
  const expiresMs = Number(m[1]);
  if (!(expiresMs > nowMs) || expiresMs > nowMs + PDF_MARKER_TTL_MS) return false;
  const given = Buffer.from(m[2] ?? "", "base64url");
  const expected = mac(secret, sessionToken, patientId, expiresMs);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
