import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The credential of a clinic day's render (lib/clinic/clinic-day/render.ts): the headless browser
 * the runner starts is handed this, and no session. It says "print clinic patient P's AGP page
 * for clinician C until T", signed by the server: an HMAC, under a key of its own derived from
 * the app's secret, of the clinician, the patient and the expiry.
 *
 * Why not a session row of the clinician, as a first version did: a session opens every page and
 * route of that clinician, Auth.js extends a database session (up to its full maxAge) whenever a
 * request touches it, and a crash mid-render leaves the row behind. A grant is read only by the
 * clinic AGP page's access check (lib/clinic/views/patient-page.ts), which still checks the
 * clinician's membership and the patient's share at that moment; everywhere else it is an unknown
 * cookie, i.e. signed out. It cannot be extended (the expiry is inside the signature) and leaves
 * nothing to sweep. Not single-use, for the reason pdf-render-marker.ts gives.
 *
 * Pure (secret and clock are parameters); pdf-render.ts binds it to the app's secret and cookies.
 */

/** Long enough for the page's request once the renderer has a free slot; useless soon after. */
export const RENDER_GRANT_TTL_MS = 60_000;

export interface RenderGrant {
  clinicianId: string;
  clinicPatientId: string;
}

function mac(secret: string, grant: RenderGrant, expiresMs: number): Buffer {
  // Its own key: the app's secret signs other things (the PDF marker), which must not verify as this.
  const key = createHmac("sha256", secret).update("clinic-day-agp-render-grant").digest();
  return createHmac("sha256", key)
    .update(`${grant.clinicianId}\n${grant.clinicPatientId}\n${expiresMs}`)
    .digest();
}

export function signRenderGrant(secret: string, grant: RenderGrant, nowMs: number): string {
  const expiresMs = nowMs + RENDER_GRANT_TTL_MS;
  const who = Buffer.from(grant.clinicianId, "utf8").toString("base64url");
  return `${who}.${expiresMs}.${mac(secret, grant, expiresMs).toString("base64url")}`;
}

/**
 * The clinician a grant was made for, when it is the server's, unexpired, and for `clinicPatientId`
 * (the page being opened); null otherwise.
 */
export function verifyRenderGrant(
  secret: string,
  value: string | undefined,
  clinicPatientId: string,
  nowMs: number,
): string | null {
  if (!value) return null;
  const m = /^([A-Za-z0-9_-]{1,200})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return null;
  const clinicianId = Buffer.from(m[1] ?? "", "base64url").toString("utf8");
  const expiresMs = Number(m[2]);
  // An expiry further ahead than a grant is ever made for is not the server's.
  if (!(expiresMs > nowMs) || expiresMs > nowMs + RENDER_GRANT_TTL_MS) return null;
  const given = Buffer.from(m[3] ?? "", "base64url");
  const expected = mac(secret, { clinicianId, clinicPatientId }, expiresMs);
  return given.length === expected.length && timingSafeEqual(given, expected) ? clinicianId : null;
}
