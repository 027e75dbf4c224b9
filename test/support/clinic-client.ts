import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { authorizeAt, callback, setCookieOf, startSignIn } from "./dashboard-client";

export interface PostOptions {
  cookie?: string;
  ip?: string;
  origin?: string | null;
  server?: string;
}

export interface SignUpForm extends Record<string, string> {
  name: string;
  clinicName: string;
  email: string;
  password: string;
}

/**
 * The clinician side over HTTP, as a browser's forms drive it: sign-up (which founds a clinic),
 * form posts from our own origin (or another, to test the refusal), invitations whose link is read
 * from the clinic page where it is shown once, and a patient added by a clinic who accepts its link.
 * Each post comes from a fresh client address
 * (X-Forwarded-For), so one test's failures do not rate-limit the next.
 */
export function clinicClient(base: string) {
  const PASSWORD = "a long enough password";

  // A random /16 per client: test files share one server, and with it the per-address limits.
  const net = `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
  let address = 0;
  const freshIp = () => `${net}.${++address % 256}`;
  const freshEmail = (tag = "dr") => `${tag}-${randomUUID().slice(0, 8)}@clinic.example`;

  function post(path: string, fields: Record<string, string>, options: PostOptions = {}) {
    const server = options.server ?? base;
    const origin = options.origin === undefined ? server : options.origin;
    return fetch(`${server}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        ...(origin ? { Origin: origin } : {}),
        ...(options.cookie ? { Cookie: options.cookie } : {}),
        "X-Forwarded-For": options.ip ?? freshIp(),
      },
      body: new URLSearchParams(fields),
    });
  }

  const get = (path: string, cookie?: string, server = base) =>
    fetch(`${server}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });

  /** `name=value` of the session cookie a response sets, or null. */
  const sessionOf = (res: Response) => setCookieOf(res, "glucose.session")?.split(";")[0] ?? null;
  const noticeOf = (res: Response) => setCookieOf(res, "glucose.clinic-notice")?.split(";")[0] ?? null;

  async function signUp(fields: Partial<SignUpForm> = {}, options: PostOptions = {}) {
    const form: SignUpForm = {
      name: "Dr Ada Example",
      clinicName: `Clinic ${randomUUID().slice(0, 6)}`,
      email: freshEmail(),
      password: PASSWORD,
      ...(fields as Record<string, string>),
    };
    const res = await post("/api/clinic/sign-up", form, options);
    return { res, form, cookie: sessionOf(res) };
  }

  async function clinician(options: PostOptions = {}) {
    const made = await signUp({}, options);
    if (!made.cookie) throw new Error(`sign-up: ${made.res.status} ${made.res.headers.get("location")}`);
    const clinicId = new URL(made.res.headers.get("location") ?? "", base).searchParams.get("clinic") ?? "";
    return { ...made, cookie: made.cookie, clinicId };
  }

  /** An administrator's new invitation, and its link as the clinic page shows it once. */
  async function invite(admin: { cookie: string; clinicId: string }, email: string, server = base) {
    const res = await post(
      "/api/clinic/invitations",
      { clinicId: admin.clinicId, email },
      { cookie: admin.cookie, server },
    );
    expect(res.status).toBe(303);
    const notice = noticeOf(res);
    expect(notice).not.toBeNull();
    const page = await (
      await get(`/clinic?clinic=${admin.clinicId}`, `${admin.cookie}; ${notice}`, server)
    ).text();
    const link = /data-testid="invitation-link"[^>]*value="([^"]+)"/
      .exec(page)?.[1]
      ?.replaceAll("&amp;", "&");
    if (!link) throw new Error("no invitation link on the clinic page");
    return new URL(link).searchParams.get("token") ?? "";
  }

  /** A clinician who joins the administrator's clinic by its invitation: their session cookie. */
  async function colleagueOf(admin: { cookie: string; clinicId: string }, name: string) {
    const email = freshEmail("colleague");
    const token = await invite(admin, email);
    const joined = await post("/api/clinic/sign-up", { name, email, password: PASSWORD, invitation: token });
    expect(joined.status).toBe(303);
    return sessionOf(joined) ?? "";
  }

  const text = async (res: Response) => {
    const body = await res.text();
    // The pages' text as a person reads it: React's comment markers and tags out, entities in.
    return body
      .replace(/<!-- -->/g, "")
      .replaceAll("&#x27;", "'")
      .replaceAll("&amp;", "&");
  };

  /** A clinician adds a patient; the link as the clinic page shows it once. */
  async function addPatient(admin: { cookie: string; clinicId: string }, name: string, birthDate = "") {
    const res = await post(
      "/api/clinic/patients",
      { clinicId: admin.clinicId, name, birthDate },
      { cookie: admin.cookie },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/clinic?clinic=${admin.clinicId}#patient-link`);
    const notice = noticeOf(res);
    expect(notice).not.toBeNull();
    const page = await text(await get(`/clinic?clinic=${admin.clinicId}`, `${admin.cookie}; ${notice}`));
    const link = /data-testid="patient-invitation-link"[^>]*value="([^"]+)"/.exec(page)?.[1];
    if (!link) throw new Error("no patient invitation link on the clinic page");
    const url = new URL(link);
    expect(url.pathname).toBe("/share");
    return { token: url.searchParams.get("token") ?? "", page };
  }

  /** The patient's side: open the link, connect at the service (back to the link), allow access. */
  async function acceptAsPatient(token: string, username: string) {
    const landing = await text(await get(`/share?token=${encodeURIComponent(token)}`));
    expect(landing).toContain("Connect your CGM account");
    const { loginUrl, stateCookie } = await startSignIn(base, `/share?token=${encodeURIComponent(token)}`);
    const back = await callback(await authorizeAt(loginUrl.origin, loginUrl, username), stateCookie);
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(`/share?token=${encodeURIComponent(token)}`);
    const cookie = setCookieOf(back, "glucose.session")?.split(";")[0] ?? "";
    const step2 = await text(await get(`/share?token=${encodeURIComponent(token)}`, cookie));
    expect(step2).toContain("Step 2 of 2: allow the clinic access");
    const accepted = await post("/api/sharing/accept", { token }, { cookie });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toMatch(/^\/sharing\?accepted=/);
    return cookie;
  }

  const patientIdIn = (page: string, name: string) => {
    const m = new RegExp(`data-patient="([0-9a-f-]{36})"(?:(?!data-patient=).)*?${name}`, "s").exec(page);
    if (!m?.[1]) throw new Error(`${name} is not on the clinic page`);
    return m[1];
  };

  return {
    colleagueOf,
    PASSWORD,
    freshIp,
    freshEmail,
    post,
    get,
    sessionOf,
    noticeOf,
    signUp,
    clinician,
    invite,
    text,
    addPatient,
    acceptAsPatient,
    patientIdIn,
  };
}
