import "server-only";
import { cookieSecurity } from "@/lib/auth/cookies";

/**
 * What the clinic page shows once after a form: a new invitation's link, or the demo clinician's
 * password. Neither can be shown again from the database (the token is stored hashed, the password
 * too), so the form's route hands it to the page in an HttpOnly cookie that lives five minutes,
 * rather than in a URL that browser history and server logs would keep.
 */

export type ClinicNotice =
  | { kind: "invitation"; id: string; token: string }
  | { kind: "patient"; id: string; token: string }
  | { kind: "demo"; password: string };

export const NOTICE_MAX_AGE_S = 300;

export function noticeCookie() {
  const { secure, prefix } = cookieSecurity();
  return {
    name: `${prefix}glucose.clinic-notice`,
    options: { httpOnly: true, sameSite: "strict" as const, path: "/", secure, maxAge: NOTICE_MAX_AGE_S },
  };
}

const SAFE = /^[A-Za-z0-9_-]{1,100}$/;

export function encodeNotice(notice: ClinicNotice): string {
  if (notice.kind === "demo") return `d.${notice.password}`;
  return `${notice.kind === "invitation" ? "i" : "p"}.${notice.id}.${notice.token}`;
}

export function decodeNotice(value: string | undefined): ClinicNotice | null {
  const [kind, a, b, ...rest] = (value ?? "").split(".");
  if (rest.length > 0 || !a || !SAFE.test(a)) return null;
  if (kind === "i" && b && SAFE.test(b)) return { kind: "invitation", id: a, token: b };
  if (kind === "p" && b && SAFE.test(b)) return { kind: "patient", id: a, token: b };
  if (kind === "d" && b === undefined) return { kind: "demo", password: a };
  return null;
}
