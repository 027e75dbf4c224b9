import { beforeAll, describe, expect, inject, it } from "vitest";
import { INPUT_LIMITS } from "@/lib/http/input";
import { clinicClient } from "../support/clinic-client";
import { signIn } from "../support/dashboard-client";
import { REDIRECT_URI, type RegisteredApp, registerApp, sandboxSession } from "../support/sandbox-client";

/**
 * The shared input guard at the HTTP edge (lib/http/input.ts), over HTTP against the real server:
 * a NUL or another control character in a path, query or form field, a body of the wrong type
 * or a broken one gets a 400 (or 413/415) with a message, never a 500; a value copied into a
 * Location is bounded; the sandbox's forms refuse cross-site posts by the dashboard's rule.
 */

const base = inject("baseUrl");
const { post, get, clinician } = clinicClient(base);

/** A 4xx with `{ error, message }`, the message a sentence a person can act on. */
async function expectRefusal(res: Response, status = 400, message?: RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get("location")).toBeNull();
  const body = (await res.json()) as { error: string; message?: string; error_description?: string };
  const text = body.message ?? body.error_description ?? "";
  expect(text.length).toBeGreaterThan(20);
  if (message) expect(text).toMatch(message);
}

let admin: { cookie: string; clinicId: string };
let patient: { cookie: string };

beforeAll(async () => {
  admin = await clinician();
  patient = await signIn(base, "SandboxUser5");
});

describe("a NUL byte in an id, a query or a form field: 400, not 500", () => {
  it.each(["summary", "agp-pdf", "export"])("GET /api/clinic/patients/{NUL id}/%s", async (what) => {
    const res = await get(`/api/clinic/patients/a%00b/${what}`, admin.cookie);
    await expectRefusal(res, 400, /NUL byte \(%00\)/);
  });

  it.each(["invitation", "sync", "remove"])("POST /api/clinic/patients/{NUL id}/%s", async (what) => {
    const res = await post(`/api/clinic/patients/a%00b/${what}`, {}, { cookie: admin.cookie });
    await expectRefusal(res, 400, /NUL byte/);
  });

  it("POST /api/sharing/a%00b/withdraw, as a patient", async () => {
    await expectRefusal(
      await post("/api/sharing/a%00b/withdraw", {}, { cookie: patient.cookie }),
      400,
      /NUL/,
    );
  });

  it("the clinic's pages with a NUL in the patient id or the clinic query", async () => {
    await expectRefusal(await get("/clinic/patients/a%00b", admin.cookie), 400, /NUL/);
    await expectRefusal(await get("/clinic/population?clinic=a%00b", admin.cookie), 400, /NUL/);
    await expectRefusal(await get("/api/reports/summary?startDate=%00", patient.cookie), 400, /NUL/);
  });

  it("clinic sign-in, add patient and triage settings with a NUL in a field", async () => {
    await expectRefusal(
      await post("/api/clinic/sign-in", { email: "a\u0000b@clinic.example", password: "x".repeat(12) }),
      400,
      /The field "email" contains a NUL byte/,
    );
    await expectRefusal(
      await post(
        "/api/clinic/patients",
        { clinicId: admin.clinicId, name: "Ann\u0000" },
        { cookie: admin.cookie },
      ),
      400,
      /"name" contains a NUL byte/,
    );
    await expectRefusal(
      await post("/api/clinic/triage", { clinicId: `${admin.clinicId}\u0000` }, { cookie: admin.cookie }),
      400,
      /"clinicId" contains a NUL byte/,
    );
  });

  it("a control character or an over-long part of the address", async () => {
    await expectRefusal(
      await get("/api/clinic/patients/a%0Db/summary", admin.cookie),
      400,
      /control character/,
    );
    await expectRefusal(await get(`/api/sharing/${"a".repeat(300)}/withdraw`), 400, /at most 256/);
    await expectRefusal(await get("/clinic/patients/%E0%A4%A"), 400, /malformed %-escape/);
  });

  it("a browser that navigates to such an address reads a page that says what is wrong", async () => {
    const res = await fetch(`${base}/clinic/patients/a%00b`, {
      headers: { Accept: "text/html,application/xhtml+xml", Cookie: admin.cookie },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain("<h1>This address or form could not be read</h1>");
    expect(html).toMatch(/NUL byte \(%00\)/);
  });

  it("a dashboard form sent as JSON, or as broken multipart", async () => {
    const json = await fetch(`${base}/api/clinic/sign-in`, {
      method: "POST",
      headers: { Origin: base, "Content-Type": "application/json" },
      body: JSON.stringify({ email: "a@b.example", password: "x" }),
    });
    await expectRefusal(json, 415, /form body sent as application\/x-www-form-urlencoded/);
    const broken = await fetch(`${base}/api/clinic/sign-in`, {
      method: "POST",
      headers: { Origin: base, "Content-Type": "multipart/form-data; boundary=zzz" },
      body: "--yyy\r\nnot a part",
    });
    await expectRefusal(broken, 400, /form body is malformed/);
  });

  it("a JSON body of the proxy with a NUL in a string, or of another type", async () => {
    const send = (body: string, type: string) =>
      fetch(`${base}/api/reports/statistics-windows`, {
        method: "POST",
        headers: { Origin: base, Cookie: patient.cookie, "Content-Type": type },
        body,
      });
    await expectRefusal(
      await send(JSON.stringify({ unit: "mg/dL", targetRanges: [{ name: "D\u0000" }] }), "application/json"),
      400,
      /"name" contains a NUL byte/,
    );
    await expectRefusal(await send("{}", "text/plain"), 415, /JSON body sent as application\/json/);
  });
});

describe("a POST to a page, which Next would take for a server action: 4xx, not 500 (found by the fuzz suite)", () => {
  const postPage = (headers: Record<string, string>, body: string) =>
    fetch(`${base}/reports/compare`, { method: "POST", redirect: "manual", headers, body });

  it("an empty or broken multipart body: 400", async () => {
    const type = { "Content-Type": "multipart/form-data; boundary=x" };
    await expectRefusal(await postPage(type, ""), 400, /form body is malformed/);
    await expectRefusal(await postPage(type, "--x\r\nbroken"), 400, /form body is malformed/);
  });

  it("a multipart body from another origin: 403", async () => {
    const res = await postPage(
      { Origin: "null", "Content-Type": "multipart/form-data; boundary=x" },
      "--x--\r\n",
    );
    await expectRefusal(res, 403, /only be sent from this site's own pages/);
  });
});

describe("the sandbox's login, consent and revoke with a body that is not their form: 4xx, not 500", () => {
  let app: RegisteredApp;
  let sandboxCookie: string;
  beforeAll(async () => {
    app = await registerApp(base, "Input guard app");
    sandboxCookie = await sandboxSession(base, "SandboxUser1");
  });

  const routes = [
    "/sandbox/v3/oauth2/login/submit",
    "/sandbox/v3/oauth2/consent/decision",
    "/sandbox/permissions/revoke",
  ];
  const send = (path: string, body: string | undefined, type?: string) =>
    fetch(`${base}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base, Cookie: sandboxCookie, ...(type ? { "Content-Type": type } : {}) },
      body,
    });

  it.each(routes)("%s with a JSON body: 415", async (path) => {
    await expectRefusal(
      await send(path, JSON.stringify({ client_id: app.client_id }), "application/json"),
      415,
    );
  });

  it.each(routes)("%s with a text body: 415", async (path) => {
    await expectRefusal(await send(path, "username=SandboxUser1", "text/plain"), 415);
  });

  it.each(routes)("%s with a broken multipart body: 400", async (path) => {
    await expectRefusal(
      await send(path, "--a\r\nbroken", "multipart/form-data; boundary=b"),
      400,
      /malformed/,
    );
  });

  it("with no body: back to the login form, a 400 that says what is missing, or the same", async () => {
    const login = await send(routes[0]!, undefined);
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toMatch(/^\/sandbox\/v3\/oauth2\/login\?&?login_error=/);
    await expectRefusal(await send(routes[1]!, undefined), 400, /client_id/);
    await expectRefusal(await send(routes[2]!, undefined), 400, /No app with that client_id/);
  });

  it("a NUL in the login form's username", async () => {
    await expectRefusal(
      await send(routes[0]!, "username=a%00b", "application/x-www-form-urlencoded"),
      400,
      /NUL/,
    );
  });
});

describe("values copied into a Location are bounded", () => {
  const huge = "a".repeat(100 * 1024);
  const long = "a".repeat(10 * 1024);

  it("a 100 KB invitation at clinic sign-up and sign-in: 413, no Location", async () => {
    await expectRefusal(await post("/api/clinic/sign-up", { invitation: huge, name: "x" }), 413, /64 KB/);
    await expectRefusal(await post("/api/clinic/sign-in", { invitation: huge, email: "x" }), 413, /64 KB/);
  });

  it("a 10 KB invitation at clinic sign-up and sign-in: 400, no Location", async () => {
    const tooLong = /"invitation" is 10240 characters long; at most 1024/;
    await expectRefusal(await post("/api/clinic/sign-up", { invitation: long, name: "x" }), 400, tooLong);
    await expectRefusal(await post("/api/clinic/sign-in", { invitation: long, email: "x" }), 400, tooLong);
  });

  it("a 100 KB or 10 KB token when accepting a share: 413 or 400, no Location", async () => {
    await expectRefusal(await post("/api/sharing/accept", { token: huge }), 413);
    await expectRefusal(
      await post("/api/sharing/accept", { token: long }),
      400,
      /"token" is 10240 characters/,
    );
  });

  it("a token within the field limit whose Location would be too long: 400", async () => {
    // 1000 characters pass the field rule, but each is 6 bytes in the encoded Location.
    const res = await post("/api/sharing/accept", { token: "é".repeat(1000) });
    await expectRefusal(res, 400, new RegExp(`address of \\d+ characters \\(at most ${INPUT_LIMITS.url}\\)`));
    const fine = await post("/api/sharing/accept", { token: "t".repeat(1000) });
    expect(fine.status).toBe(303);
    expect(fine.headers.get("location")?.length).toBeLessThanOrEqual(INPUT_LIMITS.url);
  });

  it.each([
    ["100 KB fields: 413", huge, 413],
    ["10 KB fields: 400", long, 400],
  ])("the sandbox's login form with %s, no Location", async (_label, value, status) => {
    const res = await fetch(`${base}/sandbox/v3/oauth2/login/submit`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base },
      body: new URLSearchParams({ username: "SandboxUser1", state: value, redirect_uri: value }),
    });
    await expectRefusal(res, status);
  });

  it("the sandbox's consent with a state whose redirect would be too long: 400", async () => {
    const app = await registerApp(base, "Long state app");
    const cookie = await sandboxSession(base, "SandboxUser1");
    const res = await fetch(`${base}/sandbox/v3/oauth2/consent/decision`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base, Cookie: cookie },
      body: new URLSearchParams({
        client_id: app.client_id,
        redirect_uri: REDIRECT_URI,
        response_type: "code",
        scope: "offline_access",
        state: "€".repeat(1000),
        decision: "allow",
      }),
    });
    await expectRefusal(res, 400, /address of \d+ characters/);
  });
});

describe("the sandbox's forms refuse cross-site posts, as the dashboard's do", () => {
  let app: RegisteredApp;
  let cookie: string;
  beforeAll(async () => {
    app = await registerApp(base, "Cross-site app");
    cookie = await sandboxSession(base, "SandboxUser3");
  });

  const consent = (headers: Record<string, string>) =>
    fetch(`${base}/sandbox/v3/oauth2/consent/decision`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, ...headers },
      body: new URLSearchParams({
        client_id: app.client_id,
        redirect_uri: app.redirectUri,
        response_type: "code",
        scope: "offline_access",
        decision: "allow",
      }),
    });

  it("consent with no Origin and Sec-Fetch-Site: cross-site: 403, no code", async () => {
    const res = await consent({ "Sec-Fetch-Site": "cross-site" });
    await expectRefusal(res, 403, /Cross-site form posts are refused/);
  });

  it("consent from another Origin: 403; from our own, or same-site without Origin: a code", async () => {
    await expectRefusal(await consent({ Origin: "https://evil.example" }), 403);
    const ours = await consent({ Origin: base, "Sec-Fetch-Site": "same-origin" });
    expect(ours.status).toBe(302);
    expect(new URL(ours.headers.get("location") ?? "").searchParams.get("code")).toBeTruthy();
    const noOrigin = await consent({ "Sec-Fetch-Site": "same-origin" });
    expect(noOrigin.status).toBe(302);
  });

  it.each([
    ["login", "/sandbox/v3/oauth2/login/submit", { username: "SandboxUser3" }],
    ["revoke", "/sandbox/permissions/revoke", { client_id: "x" }],
    ["logout", "/sandbox/v3/oauth2/logout", {}],
  ])("%s with no Origin and Sec-Fetch-Site: cross-site: 403", async (_label, path, fields) => {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site" },
      body: new URLSearchParams(fields),
    });
    await expectRefusal(res, 403, /Cross-site/);
    expect(res.headers.get("set-cookie")).toBeNull();
  });
});
