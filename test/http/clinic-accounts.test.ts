import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server";
import { clinicClient } from "../support/clinic-client";
import { signIn as patientSignIn, setCookieOf } from "../support/dashboard-client";

/**
 * Clinician accounts over HTTP against the real server: sign-up founds a clinic and signs in,
 * sign-in refuses alike an unknown email and a wrong password and is rate-limited in the database,
 * invitations bring clinicians in once, administrators only invite, patients get 403 on the clinic.
 * Each test comes from its own client address (X-Forwarded-For), so the per-address limit of one
 * test does not reach the next.
 */

const base = inject("baseUrl");
const {
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
  colleagueOf,
} = clinicClient(base);

describe("sign-up", () => {
  it("founds the clinic, signs in, and the session opens the clinic page", async () => {
    const { res, form, cookie } = await signUp();
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^\/clinic\?clinic=[0-9a-f-]{36}$/);
    expect(setCookieOf(res, "glucose.session")).toMatch(/; HttpOnly(;|$)/i);
    const page = await get("/clinic", cookie ?? "");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(form.clinicName);
    expect(html).toContain(form.email);
    expect(html).toContain("Administrator");
    expect(html).toContain("No patients yet");
    expect(html).toContain("Invite a clinician");
  });

  it("leads a clinician who opens the home page or the patient dashboard to the clinic", async () => {
    const { cookie } = await clinician();
    const home = await get("/", cookie);
    expect(home.status).toBe(307);
    expect(home.headers.get("location")).toBe("/clinic");
    const dashboard = await (await get("/dashboard", cookie)).text();
    expect(dashboard).toContain("This is a clinician account");
    expect(dashboard).toContain('href="/clinic"');
    expect(dashboard).not.toContain("Disconnect your CGM account");
  });

  it("refuses an email that already has an account, however it is typed", async () => {
    const { form } = await clinician();
    const again = await signUp({ email: `  ${form.email.toUpperCase()} ` });
    expect(again.res.status).toBe(303);
    expect(again.res.headers.get("location")).toBe("/clinic/sign-up?error=email_taken");
    expect(again.cookie).toBeNull();
  });

  it("sends mistakes back to the form as a code the page words", async () => {
    const short = await signUp({ password: "too short" });
    expect(short.res.headers.get("location")).toBe("/clinic/sign-up?error=password_short");
    expect(short.cookie).toBeNull();
    expect((await signUp({ clinicName: "  " })).res.headers.get("location")).toBe(
      "/clinic/sign-up?error=clinic_name",
    );
    expect((await signUp({ email: "not-an-email" })).res.headers.get("location")).toBe(
      "/clinic/sign-up?error=email",
    );
    const page = await (await get("/clinic/sign-up?error=password_short")).text();
    expect(page).toContain("at least 12 characters");
    // Nothing of the query is echoed: an unknown code reads as the general message.
    const odd = await (await get("/clinic/sign-up?error=%3Cb%3Ehello")).text();
    expect(odd).not.toContain("<b>hello");
    expect(odd).toContain("Check each field");
    // The refused sign-up made no account.
    const signIn = await post("/api/clinic/sign-in", { email: short.form.email, password: "too short" });
    expect(signIn.headers.get("location")).toBe("/clinic/sign-in?error=credentials");
  });

  it("refuses a form posted from another site", async () => {
    const res = await signUp({}, { origin: "https://evil.example" });
    expect(res.res.status).toBe(403);
    expect(res.cookie).toBeNull();
    const signIn = await post(
      "/api/clinic/sign-in",
      { email: "x@y.example", password: PASSWORD },
      {
        origin: "https://evil.example",
      },
    );
    expect(signIn.status).toBe(403);
  });
});

describe("sign-in", () => {
  it("signs in with the email in any case, into a new session", async () => {
    const { form, cookie: first } = await clinician();
    const res = await post("/api/clinic/sign-in", { email: form.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/clinic");
    const second = sessionOf(res);
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    expect((await get("/clinic", second ?? "")).status).toBe(200);
  });

  it("answers a wrong password and an unknown email alike, in similar time", async () => {
    const { form } = await clinician();
    const ip = freshIp();
    const timed = async (email: string) => {
      const t0 = performance.now();
      const res = await post("/api/clinic/sign-in", { email, password: "not the password!" }, { ip });
      return { res, ms: performance.now() - t0 };
    };
    const wrong = await timed(form.email);
    const unknown = await timed(freshEmail("nobody"));
    for (const { res } of [wrong, unknown]) {
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/clinic/sign-in?error=credentials");
      expect(sessionOf(res)).toBeNull();
    }
    // Both pay for one scrypt: an unknown email is not answered noticeably faster.
    const again = [await timed(form.email), await timed(freshEmail("nobody"))];
    const wrongMs = Math.min(wrong.ms, again[0]?.ms ?? wrong.ms);
    const unknownMs = Math.min(unknown.ms, again[1]?.ms ?? unknown.ms);
    expect(unknownMs).toBeGreaterThan(wrongMs * 0.5);
    const page = await (await get("/clinic/sign-in?error=credentials")).text();
    expect(page).toContain("The email or the password is not right");
  });

  it("refuses the 6th attempt after 5 failures for one email, with Retry-After, even with the right password", async () => {
    const { form } = await clinician();
    for (let i = 0; i < 5; i++) {
      // From different addresses: the email's own limit is what stops the 6th.
      const res = await post("/api/clinic/sign-in", { email: form.email, password: `wrong password ${i}` });
      expect(res.headers.get("location")).toBe("/clinic/sign-in?error=credentials");
    }
    const sixth = await post("/api/clinic/sign-in", { email: form.email, password: PASSWORD });
    expect(sixth.status).toBe(429);
    const retryAfter = Number(sixth.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(sixth.headers.get("cache-control")).toBe("no-store");
    expect(sessionOf(sixth)).toBeNull();
    const text = await sixth.text();
    expect(text).toContain("Too many failed sign-in attempts");
    expect(text).toMatch(/try again in 1[45] minutes/);
  });

  it("lets at most 5 of 12 parallel wrong passwords for one email be tried, then refuses the right one too", async () => {
    const { form } = await clinician();
    // All at once, each from its own address: only the email's limit can hold them.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post("/api/clinic/sign-in", { email: form.email, password: `parallel guess ${i}` }),
      ),
    );
    const tried = answers.filter((r) => r.headers.get("location") === "/clinic/sign-in?error=credentials");
    const refused = answers.filter((r) => r.status === 429);
    expect(tried.length).toBeLessThanOrEqual(5);
    expect(tried.length + refused.length).toBe(12);
    for (const r of answers) expect(sessionOf(r)).toBeNull();
    // The window has not passed: the right password waits like any other attempt.
    const right = await post("/api/clinic/sign-in", { email: form.email, password: PASSWORD });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    expect(sessionOf(right)).toBeNull();
  });

  it("clears an email's count at a successful sign-in", async () => {
    const { form } = await clinician();
    const ip = freshIp();
    const fail = () =>
      post("/api/clinic/sign-in", { email: form.email, password: "wrong password!" }, { ip });
    for (let i = 0; i < 4; i++) expect((await fail()).status).toBe(303);
    const ok = await post("/api/clinic/sign-in", { email: form.email, password: PASSWORD }, { ip });
    expect(ok.headers.get("location")).toBe("/clinic");
    for (let i = 0; i < 5; i++) expect((await fail()).status).toBe(303);
    expect((await fail()).status).toBe(429);
  });

  it("refuses an address after 20 failures, whichever emails it tries", async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      const res = await post(
        "/api/clinic/sign-in",
        { email: freshEmail("guess"), password: PASSWORD },
        { ip },
      );
      expect(res.status).toBe(303);
    }
    const next = await post(
      "/api/clinic/sign-in",
      { email: freshEmail("guess"), password: PASSWORD },
      { ip },
    );
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("invitations", () => {
  it("brings a new clinician in once: link, sign-up, membership; the link then refuses", async () => {
    const admin = await clinician();
    const email = freshEmail("colleague");
    const token = await invite(admin, email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Pending until used; the link is not shown again without the one-time notice.
    const before = await (await get(`/clinic?clinic=${admin.clinicId}`, admin.cookie)).text();
    expect(before).toContain(email);
    expect(before).not.toContain(token);

    const join = await get(`/clinic/join?token=${token}`);
    expect(join.status).toBe(200);
    const joinHtml = await join.text();
    expect(joinHtml).toContain(`Join ${admin.form.clinicName}`);
    expect(joinHtml).toContain(email);

    const joined = await post("/api/clinic/sign-up", {
      name: "Dr Colleague",
      email,
      password: PASSWORD,
      invitation: token,
    });
    expect(joined.status).toBe(303);
    expect(joined.headers.get("location")).toBe(`/clinic?clinic=${admin.clinicId}`);
    const cookie = sessionOf(joined) ?? "";
    const page = await (await get("/clinic", cookie)).text();
    expect(page).toContain(admin.form.clinicName);
    expect(page).toContain(admin.form.email);
    expect(page).toContain(email);
    expect(page).not.toContain("Invite a clinician"); // a clinician, not an administrator

    // Used: neither a sign-in with it nor a sign-up joins again.
    const reuse = await post("/api/clinic/sign-in", { email, password: PASSWORD, invitation: token });
    expect(reuse.headers.get("location")).toBe(`/clinic/join?token=${token}&error=invitation_used`);
    const other = await post("/api/clinic/sign-up", {
      name: "Someone Else",
      email: freshEmail("other"),
      password: PASSWORD,
      invitation: token,
    });
    expect(other.headers.get("location")).toBe(`/clinic/join?token=${token}&error=invitation_used`);
    expect(sessionOf(other)).toBeNull();
    expect(await (await get(`/clinic/join?token=${token}`)).text()).toContain("already been used");
  });

  it("lets an existing clinician join by signing in, into both clinics", async () => {
    const admin = await clinician();
    const existing = await clinician();
    const token = await invite(admin, existing.form.email);
    const res = await post("/api/clinic/sign-in", {
      email: existing.form.email,
      password: PASSWORD,
      invitation: token,
    });
    expect(res.headers.get("location")).toBe(`/clinic?clinic=${admin.clinicId}`);
    const cookie = sessionOf(res) ?? "";
    const page = await (await get(`/clinic?clinic=${admin.clinicId}`, cookie)).text();
    expect(page).toContain(`aria-label="Your clinics"`);
    expect(page).toContain(existing.form.clinicName);
    expect(page).toContain(admin.form.clinicName);
  });

  it("works only for the invited email, and refuses unknown tokens", async () => {
    const admin = await clinician();
    const token = await invite(admin, freshEmail("invited"));
    const wrong = await post("/api/clinic/sign-up", {
      name: "Not Invited",
      email: freshEmail("uninvited"),
      password: PASSWORD,
      invitation: token,
    });
    expect(wrong.headers.get("location")).toBe(`/clinic/join?token=${token}&error=invitation_email`);
    expect(sessionOf(wrong)).toBeNull();
    const unknown = await get(`/clinic/join?token=${"x".repeat(43)}`);
    expect(await unknown.text()).toContain("This invitation link is not valid");
    expect(await (await get("/clinic/join")).text()).toContain("This invitation link is not valid");
  });

  it("may be created by administrators only (403), and only for their own clinic", async () => {
    const admin = await clinician();
    const memberCookie = await colleagueOf(admin, "Dr Member");
    const byMember = await post(
      "/api/clinic/invitations",
      { clinicId: admin.clinicId, email: freshEmail() },
      { cookie: memberCookie },
    );
    expect(byMember.status).toBe(403);
    expect((await byMember.json()).message).toContain("administrators");

    const stranger = await clinician();
    const byOtherAdmin = await post(
      "/api/clinic/invitations",
      { clinicId: admin.clinicId, email: freshEmail() },
      { cookie: stranger.cookie },
    );
    expect(byOtherAdmin.status).toBe(403);
    // Another clinic's id in the address shows one's own clinic, nothing of the other.
    const page = await (await get(`/clinic?clinic=${admin.clinicId}`, stranger.cookie)).text();
    expect(page).toContain(stranger.form.clinicName);
    expect(page).not.toContain(admin.form.clinicName);

    const signedOut = await post("/api/clinic/invitations", {
      clinicId: admin.clinicId,
      email: freshEmail(),
    });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("location")).toBe("/clinic/sign-in");
  });

  it("tells the administrator about a bad email or someone already in the clinic", async () => {
    const admin = await clinician();
    const bad = await post(
      "/api/clinic/invitations",
      { clinicId: admin.clinicId, email: "nope" },
      { cookie: admin.cookie },
    );
    expect(bad.headers.get("location")).toBe(`/clinic?clinic=${admin.clinicId}&error=email`);
    const self = await post(
      "/api/clinic/invitations",
      { clinicId: admin.clinicId, email: admin.form.email },
      { cookie: admin.cookie },
    );
    expect(self.headers.get("location")).toBe(`/clinic?clinic=${admin.clinicId}&error=already_member`);
  });
});

describe("who may open the clinic", () => {
  it("sends the signed-out to the clinician sign-in", async () => {
    const res = await get("/clinic");
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("/clinic/sign-in");
  });

  it("answers a patient's session with 403 and a page that explains it", async () => {
    const patient = await patientSignIn(base, "SandboxUser1");
    const res = await get("/clinic", patient.cookie);
    expect(res.status).toBe(403);
    const html = await res.text();
    expect(html).toContain("This page is for clinicians");
    expect(html).toContain("patient account");
  });
});

describe("the demo clinic (embedded default)", () => {
  /** A visitor presses "Create a demo clinic": their clinic, signed in, and the page shown once. */
  async function makeDemo(cookie?: string) {
    const res = await post("/api/clinic/demo", {}, { cookie });
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location).toMatch(/^\/clinic\?clinic=[0-9a-f-]{36}$/);
    const session = sessionOf(res) ?? cookie ?? "";
    const notice = noticeOf(res);
    const html = await (await get(location, notice ? `${session}; ${notice}` : session)).text();
    return {
      res,
      location,
      cookie: session,
      clinicId: new URL(location, base).searchParams.get("clinic") ?? "",
      html,
      email: /data-testid="demo-email"[^>]*>([^<]+)</.exec(html)?.[1] ?? "",
      password: /data-testid="demo-password"[^>]*>([^<]+)</.exec(html)?.[1] ?? "",
    };
  }

  it("is made by the button, signed in, labelled, its email and password shown once and working", async () => {
    const demo = await makeDemo();
    expect(demo.html).toContain("Demo clinic");
    expect(demo.html).toContain('data-testid="demo-badge"');
    expect(demo.email).toMatch(/^demo-[0-9a-f]{12}@clinic\.example$/);
    expect(demo.password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    // Without the one-time notice, the page no longer shows it.
    expect(await (await get(demo.location, demo.cookie)).text()).not.toContain(demo.password);
    const signIn = await post("/api/clinic/sign-in", { email: demo.email, password: demo.password });
    expect(signIn.headers.get("location")).toBe("/clinic");
    expect(await (await get("/clinic/sign-up")).text()).toContain("Create a demo clinic");
  });

  it("gives each visitor a clinic of their own: a second visitor never enters the first one's", async () => {
    const first = await makeDemo();
    const patientName = `Demo patient ${Math.random().toString(36).slice(2, 8)}`;
    const added = await post(
      "/api/clinic/patients",
      { clinicId: first.clinicId, name: patientName, birthDate: "" },
      { cookie: first.cookie },
    );
    expect(added.status).toBe(303);

    const second = await makeDemo();
    expect(second.clinicId).not.toBe(first.clinicId);
    expect(second.email).not.toBe(first.email);
    expect(second.html).not.toContain(patientName);
    // The second visitor's session cannot open the first one's clinic or its patients.
    const theirs = await (await get(`/clinic?clinic=${first.clinicId}`, second.cookie)).text();
    expect(theirs).not.toContain(patientName);
    // And the first visitor's account still signs in with its own password.
    const again = await post("/api/clinic/sign-in", { email: first.email, password: first.password });
    expect(again.headers.get("location")).toBe("/clinic");
    expect(await (await get(`/clinic?clinic=${first.clinicId}`, first.cookie)).text()).toContain(patientName);
  });

  // The server shares the database only on PostgreSQL; PGlite's folder is the server's alone.
  it.runIf(process.env.TEST_DATABASE_URL)(
    "deletes demo clinics and their accounts a week after they were made, and no others",
    async () => {
      const old = await makeDemo();
      const recent = await makeDemo();
      const real = await clinician();
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      try {
        const eightDaysAgo = "now() - interval '8 days'";
        await client.query(`update clinics set created_at = ${eightDaysAgo} where id = any($1)`, [
          [old.clinicId, real.clinicId],
        ]);
        await client.query(
          `update clinician_credentials set created_at = ${eightDaysAgo} where email = any($1)`,
          [[old.email, real.form.email]],
        );
        await makeDemo(); // a new visitor's demo sweeps the expired ones
        const clinics = await client.query("select id from clinics where id = any($1)", [
          [old.clinicId, recent.clinicId, real.clinicId],
        ]);
        expect(clinics.rows.map((r) => r.id).sort()).toEqual([recent.clinicId, real.clinicId].sort());
        const accounts = await client.query("select email from clinician_credentials where email = any($1)", [
          [old.email, recent.email, real.form.email],
        ]);
        expect(accounts.rows.map((r) => r.email).sort()).toEqual([recent.email, real.form.email].sort());
      } finally {
        await client.end();
      }
      const gone = await post("/api/clinic/sign-in", { email: old.email, password: old.password });
      expect(gone.headers.get("location")).toBe("/clinic/sign-in?error=credentials");
    },
  );

  it("makes at most 5 from one address in 15 minutes: then a 429 page that says when to try again", async () => {
    const ip = freshIp();
    for (let k = 0; k < 5; k++) expect((await post("/api/clinic/demo", {}, { ip })).status).toBe(303);
    const refused = await post("/api/clinic/demo", {}, { ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(sessionOf(refused)).toBeNull();
    const page = await refused.text();
    expect(page).toContain("Many demo clinics were made from here just now; try again in 15 minutes");
    // Another address is not held up.
    expect((await post("/api/clinic/demo", {})).status).toBe(303);
  });

  it("sends a visitor who has a demo clinic back to it, without a new account or password", async () => {
    const first = await makeDemo();
    const back = await makeDemo(first.cookie);
    expect(back.location).toBe(first.location);
    expect(noticeOf(back.res)).toBeNull();
    expect(sessionOf(back.res)).toBeNull();
    const still = await post("/api/clinic/sign-in", { email: first.email, password: first.password });
    expect(still.headers.get("location")).toBe("/clinic");
  });
});

describe("a server pointed at another service (its invitations live 2 s)", () => {
  let other: AppServer;
  beforeAll(async () => {
    other = await startAppServer({
      CGM_API_BASE_URL: "http://127.0.0.1:9/nothing-here",
      AUTH_SECRET: "s".repeat(40),
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      CGM_CLIENT_ID: "dashboard",
      CGM_CLIENT_SECRET: "secret",
      CLINIC_INVITATION_TTL_S: "2",
    });
  });
  afterAll(async () => {
    await other?.stop();
  });

  it("has no demo clinic: the route is 404 and the button is not offered", async () => {
    const res = await post("/api/clinic/demo", {}, { server: other.url });
    expect(res.status).toBe(404);
    expect(sessionOf(res)).toBeNull();
    expect(await (await get("/clinic/sign-up", undefined, other.url)).text()).not.toContain(
      "Create a demo clinic",
    );
  });

  it("refuses an expired invitation", async () => {
    const admin = await clinician({ server: other.url });
    const email = freshEmail("late");
    const token = await invite(admin, email, other.url);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await (await get(`/clinic/join?token=${token}`, undefined, other.url)).text()).toContain(
      "has expired",
    );
    const late = await post(
      "/api/clinic/sign-up",
      { name: "Dr Late", email, password: PASSWORD, invitation: token },
      { server: other.url },
    );
    expect(late.headers.get("location")).toBe(`/clinic/join?token=${token}&error=invitation_expired`);
    expect(sessionOf(late)).toBeNull();
    const pending = await (await get(`/clinic?clinic=${admin.clinicId}`, admin.cookie, other.url)).text();
    expect(pending).not.toContain(email);
  });
});
