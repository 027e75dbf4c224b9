import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer, UNLIMITED_CALL_BUDGET } from "../support/app-server";
import { clinicClient } from "../support/clinic-client";
import {
  authorizeAt,
  callback,
  dashboardApp,
  developer,
  setCookieOf,
  signIn,
  startSignIn,
} from "../support/dashboard-client";
import { emptyDatabase } from "../support/database";
import { dt, exchangeCode, revokeAppAs } from "../support/sandbox-client";

/**
 * One patient account per service account (issue 15, item 7), over HTTP against real servers and
 * their embedded sandbox, whose v3 envelope names the account (userId per account and app). Each
 * cookie jar is a browser. Under CGM_API_VERSION=v3 two browsers signing in as one sandbox user
 * reach one account (settings, clinic shares, withdrawal), two users never share one, a browser
 * signed in as one account is refused another, and sign-ins racing make one account; under v2
 * every sign-in outside a session still makes its own account and the sharing page says how to
 * withdraw at the service; accounts made under v2 are named at their next v3 sign-in, merged when
 * the same person has two, and never given another person's name. These suites start their own
 * servers, in the mode each is about, whatever mode the shared one runs in.
 */

const CALLBACK = "/api/auth/callback/cgm";

interface Browser {
  cookie: string;
}

/** One sign-in of `username` in a browser holding `current` (a session cookie) or none. */
async function signInAttempt(base: string, username: string, current?: string) {
  const { loginUrl, stateCookie } = await startSignIn(base, "/dashboard", current);
  const back = await authorizeAt(loginUrl.origin, loginUrl, username);
  const res = await callback(back, [stateCookie, current].filter(Boolean).join("; "));
  const session = setCookieOf(res, "glucose.session")?.split(";")[0] ?? null;
  return { back, location: res.headers.get("location"), session };
}

function pages(base: string, version: "v2" | "v3" = "v3") {
  const { text } = clinicClient(base);
  const get = (p: string, b: Browser) => fetch(`${base}${p}`, { headers: { Cookie: b.cookie } });
  return {
    sharing: async (b: Browser) => text(await get("/sharing", b)),
    /** The display settings the account holds, as the overview reports them. */
    async target(b: Browser) {
      const res = await get("/api/dashboard/overview?range=24h", b);
      expect(res.status).toBe(200);
      return ((await res.json()) as { overview: { target: { low: number; high: number } } }).overview.target;
    },
    async setTarget(b: Browser, low: number, high: number) {
      const res = await fetch(`${base}/api/preferences`, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: b.cookie, Origin: base },
        body: new URLSearchParams({
          returnTo: "/dashboard",
          // mg/dL whatever the data's unit, so every account reads back the numbers it was given.
          unit: "mg/dL",
          inputUnit: "mg/dL",
          targetLow: String(low),
          targetHigh: String(high),
        }),
      });
      expect(res.status).toBe(303);
    },
    /** The patient's own data through the proxy: 200 while the stored authorization works. */
    async reads(b: Browser) {
      const end = Date.now() - 60_000;
      const res = await fetch(
        `${base}/api/cgm/${version}/users/self/egvs?startDate=${dt(end - 3_600_000)}&endDate=${dt(end)}`,
        { headers: { Cookie: b.cookie } },
      );
      await res.body?.cancel();
      return res.status;
    },
  };
}

const shareIdIn = (sharing: string) =>
  /action="\/api\/sharing\/([0-9a-f-]{36})\/withdraw"/.exec(sharing)?.[1];

const summaryWindow = () => {
  const end = Date.now() - 60_000;
  return `startDate=${dt(end - 86_400_000)}&endDate=${dt(end)}`;
};

describe("API v3: one patient account per service account", () => {
  let server: AppServer;
  let base: string;

  beforeAll(async () => {
    server = await startAppServer({ ...UNLIMITED_CALL_BUDGET, CGM_API_VERSION: "v3" });
    base = server.url;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("two browsers of SandboxUser2 reach one account: its settings, its clinic shares and their withdrawal", async () => {
    const { sharing, target, setTarget } = pages(base);
    const clinic = clinicClient(base);
    const first = await signIn(base, "SandboxUser2");
    const second = await signIn(base, "SandboxUser2");
    expect(second.cookie).not.toBe(first.cookie);

    await setTarget(first, 81, 163);
    expect(await target(second)).toEqual({ low: 81, high: 163 });

    // A clinic is granted access from the first browser...
    const admin = await clinic.clinician();
    const { token, page } = await clinic.addPatient(admin, "Vera Twobrowsers");
    const patientId = clinic.patientIdIn(page, "Vera Twobrowsers");
    const accepted = await clinic.post("/api/sharing/accept", { token }, { cookie: first.cookie });
    expect(accepted.headers.get("location")).toMatch(/^\/sharing\?accepted=/);
    const summary = () =>
      clinic.get(`/api/clinic/patients/${patientId}/summary?${summaryWindow()}`, admin.cookie);
    expect((await summary()).status).toBe(200);

    // ...the second browser sees it and withdraws it, and the clinic loses access.
    const fromSecond = await sharing(second);
    expect(fromSecond).toContain(`Withdraw access of ${admin.form.clinicName}`);
    const shareId = shareIdIn(fromSecond);
    expect(shareId).toBeTruthy();
    const withdrawn = await clinic.post(`/api/sharing/${shareId}/withdraw`, {}, { cookie: second.cookie });
    expect(withdrawn.headers.get("location")).toBe("/sharing?withdrawn=1");
    const refused = await summary();
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: "not_shared" });
    expect(await clinic.text(await clinic.get(`/clinic?clinic=${admin.clinicId}`, admin.cookie))).toMatch(
      /Vera Twobrowsers.*Access withdrawn/s,
    );
    expect(await sharing(first)).toContain("No clinic has access to your data.");
    // Under v3 the page says every sign-in of the account reaches it.
    expect(await sharing(first)).toMatch(
      /data-testid="withdraw-at-service" data-api-version="v3".*Wherever you sign in/s,
    );
  }, 90_000);

  it("keeps the newest authorization: the first browser reads on with the second's tokens", async () => {
    const { reads } = pages(base);
    const first = await signInAttempt(base, "SandboxUser4");
    const second = await signInAttempt(base, "SandboxUser4");
    expect(first.session && second.session).toBeTruthy();
    // The first authorization's code, presented again, revokes its grant at the service
    // (RFC 6749 §4.1.2): only the second authorization still works.
    const app = { ...dashboardApp(server.dataDir), redirectUri: `${base}${CALLBACK}` };
    const replay = await exchangeCode(base, app, first.back.searchParams.get("code") ?? "");
    expect(replay.status).toBe(400);
    expect(await reads({ cookie: first.session ?? "" })).toBe(200);
    expect(await reads({ cookie: second.session ?? "" })).toBe(200);
  }, 60_000);

  it("never puts SandboxUser2 and SandboxUser3 in one account", async () => {
    const { sharing, target, setTarget } = pages(base);
    const two = await signIn(base, "SandboxUser2");
    const three = await signIn(base, "SandboxUser3");
    // The defaults, in the unit of SandboxUser3's readings (mg/dL: API v3 sends nothing else),
    // not SandboxUser2's 81–163.
    expect(await target(three)).toEqual({ low: 70, high: 180 });
    await setTarget(three, 90, 150);
    expect(await target(two)).toEqual({ low: 81, high: 163 });
    expect(await target(await signIn(base, "SandboxUser3"))).toEqual({ low: 90, high: 150 });
    expect(await sharing(three)).toContain("No clinic has access to your data.");
  }, 60_000);

  it("refuses another service account in a browser signed in to one, and leaves both as they were", async () => {
    const { sharing, target } = pages(base);
    const clinic = clinicClient(base);
    const two = await signIn(base, "SandboxUser2");
    const admin = await clinic.clinician();
    const { token } = await clinic.addPatient(admin, "Vera Refused");
    await clinic.post("/api/sharing/accept", { token }, { cookie: two.cookie });

    const other = await signInAttempt(base, "SandboxUser3", two.cookie);
    expect(other.location).toBe("/auth/error?reason=other_account");
    expect(other.session).toBeNull();
    const page = await clinic.text(
      await fetch(`${base}${other.location}`, { headers: { Cookie: two.cookie } }),
    );
    expect(page).toContain("This browser is signed in to another account");
    expect(page).toContain("Sign out");

    // Still SandboxUser2's account, with its share; SandboxUser3's untouched.
    expect(await target(two)).toEqual({ low: 81, high: 163 });
    expect(await sharing(two)).toContain(`Withdraw access of ${admin.form.clinicName}`);
    const three = await signIn(base, "SandboxUser3");
    expect(await target(three)).toEqual({ low: 90, high: 150 });
    expect(await sharing(three)).toContain("No clinic has access to your data.");

    // The same account in the same browser is a reconnect.
    const again = await signInAttempt(base, "SandboxUser2", two.cookie);
    expect(again.location).toBe("/dashboard");
    expect(await target({ cookie: again.session ?? "" })).toEqual({ low: 81, high: 163 });
  }, 90_000);

  it("refuses a clinician's browser too: a clinician's account never becomes a patient's", async () => {
    const clinic = clinicClient(base);
    const admin = await clinic.clinician();
    const attempt = await signInAttempt(base, "SandboxUser6", admin.cookie);
    expect(attempt.location).toBe("/auth/error?reason=other_account");
    // The patient's own sign-in elsewhere makes their account, not the clinician's.
    const patient = await signIn(base, "SandboxUser6");
    expect(await clinic.text(await clinic.get("/sharing", patient.cookie))).toContain(
      "No clinic has access to your data.",
    );
  }, 60_000);

  it("refuses the sign-in, with a page that says why, when the service does not name the account", async () => {
    const { target } = pages(base);
    const app = developer(base, dashboardApp(server.dataDir));
    // Every attempt of the dataRange call that names the account fails (the token exchange is not
    // a data request, so it succeeds).
    await app.faults({ failNext: 4, failStatus: 503, retryAfterSeconds: 0 });
    try {
      const attempt = await signInAttempt(base, "SandboxUser1");
      expect(attempt.location).toBe("/auth/error?reason=service_unavailable");
      expect(attempt.session).toBeNull();
    } finally {
      await app.faults({ failNext: 0 });
    }
    const page = await (await fetch(`${base}/auth/error?reason=no_identity`)).text();
    expect(page).toContain("The glucose data service did not say which account signed in");
    expect(await target(await signIn(base, "SandboxUser1"))).toEqual({ low: 70, high: 180 });
  }, 60_000);

  it("makes one account of sign-ins of one service account that race", async () => {
    const { target, setTarget, reads } = pages(base);
    // Every browser is at the callback at once, each with its own code.
    const started = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const { loginUrl, stateCookie } = await startSignIn(base);
        return { back: await authorizeAt(base, loginUrl, "SandboxUser5"), stateCookie };
      }),
    );
    const done = await Promise.all(started.map((s) => callback(s.back, s.stateCookie)));
    const browsers = done.map((res) => {
      expect(res.headers.get("location")).toBe("/dashboard");
      return { cookie: setCookieOf(res, "glucose.session")?.split(";")[0] ?? "" };
    });
    await setTarget(browsers[0]!, 75, 175);
    for (const b of browsers) {
      expect(await target(b)).toEqual({ low: 75, high: 175 });
      expect(await reads(b)).toBe(200);
    }
  }, 90_000);
});

describe("API v2, then v3 on the same data: accounts made under v2", () => {
  let server: AppServer;
  let base: string;
  const dataDir = mkdtempSync(path.join(tmpdir(), "glucose-accounts-"));
  const start = async (version: "v2" | "v3") => {
    server = await startAppServer({ ...UNLIMITED_CALL_BUDGET, CGM_API_VERSION: version, DATA_DIR: dataDir });
    base = server.url;
  };
  /** Made under v2, used under v3. */
  const legacy: Record<string, Browser> = {};
  let clinicB: Awaited<ReturnType<ReturnType<typeof clinicClient>["clinician"]>>;
  let dupeId = "";

  beforeAll(() => start("v2"));
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("v2: a second browser gets an account of its own, and the sharing page says how to withdraw at the service", async () => {
    const { sharing } = pages(base);
    const clinic = clinicClient(base);
    const admin = await clinic.clinician();
    const { token, page } = await clinic.addPatient(admin, "Vee Two");
    const patientId = clinic.patientIdIn(page, "Vee Two");
    const first = { cookie: await clinic.acceptAsPatient(token, "SandboxUser2") };
    expect(await sharing(first)).toContain(`Withdraw access of ${admin.form.clinicName}`);

    const second = await signIn(base, "SandboxUser2");
    const elsewhere = await sharing(second);
    expect(elsewhere).toContain("No clinic has access to your data.");
    expect(elsewhere).toMatch(/data-testid="withdraw-at-service" data-api-version="v2"/);
    expect(elsewhere).toContain(
      "Signing in to this dashboard from another browser or device opens a separate account that does not show these clinics",
    );
    expect(elsewhere).toContain(`href="${base}/sandbox/permissions"`);
    expect(elsewhere).toMatch(
      /open <strong>Permissions<\/strong> and revoke <strong>Glucose Dashboard<\/strong>/,
    );

    // What the page says works: revoked at the service, the clinic reads nothing more.
    await revokeAppAs(base, dashboardApp(dataDir).client_id, "SandboxUser2");
    const refused = await clinic.get(
      `/api/clinic/patients/${patientId}/summary?${summaryWindow()}`,
      admin.cookie,
    );
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "reconnect_required" });
    expect(await clinic.text(await clinic.get(`/clinic?clinic=${admin.clinicId}`, admin.cookie))).toMatch(
      /Vee Two.*Reconnect needed/s,
    );
  }, 90_000);

  it("v2: accounts for the next steps (one shares with a clinic, one person has two)", async () => {
    const { setTarget } = pages(base);
    const clinic = clinicClient(base);
    clinicB = await clinic.clinician();
    const lee = await clinic.addPatient(clinicB, "Lee Gacy");
    legacy.four = { cookie: await clinic.acceptAsPatient(lee.token, "SandboxUser4") };
    await setTarget(legacy.four, 77, 177);
    const dee = await clinic.addPatient(clinicB, "Dee Uplicate");
    dupeId = clinic.patientIdIn(dee.page, "Dee Uplicate");
    legacy.sixA = { cookie: await clinic.acceptAsPatient(dee.token, "SandboxUser6") };
    legacy.sixB = await signIn(base, "SandboxUser6");
    legacy.one = await signIn(base, "SandboxUser1");
    await setTarget(legacy.one, 79, 179);
  }, 90_000);

  describe("after the switch to v3", () => {
    beforeAll(async () => {
      await server.stop();
      await start("v3");
    }, 60_000);

    it("a v2 account that signs in again is named, and a new browser then reaches it", async () => {
      const { sharing, target } = pages(base);
      const renewed = await signInAttempt(base, "SandboxUser4", legacy.four?.cookie);
      expect(renewed.location).toBe("/dashboard");
      const fresh = await signIn(base, "SandboxUser4");
      expect(await target(fresh)).toEqual({ low: 77, high: 177 });
      expect(await sharing(fresh)).toContain(`Withdraw access of ${clinicB.form.clinicName}`);
    }, 60_000);

    it("a person's two v2 accounts become one: the shares of the old one can be withdrawn from anywhere", async () => {
      const { sharing } = pages(base);
      const clinic = clinicClient(base);
      // A new browser: the v2 accounts are not named yet, so it gets a new, named one.
      const fresh = await signIn(base, "SandboxUser6");
      expect(await sharing(fresh)).toContain("No clinic has access to your data.");
      // The old account signs in again: its own connection says it is SandboxUser6 too.
      const renewed = await signInAttempt(base, "SandboxUser6", legacy.sixA?.cookie);
      expect(renewed.location).toBe("/dashboard");
      const merged = await sharing(fresh);
      expect(merged).toContain(`Withdraw access of ${clinicB.form.clinicName}`);
      const summary = () =>
        clinic.get(`/api/clinic/patients/${dupeId}/summary?${summaryWindow()}`, clinicB.cookie);
      expect((await summary()).status).toBe(200);
      const withdrawn = await clinic.post(
        `/api/sharing/${shareIdIn(merged)}/withdraw`,
        {},
        { cookie: fresh.cookie },
      );
      expect(withdrawn.status).toBe(303);
      expect((await summary()).status).toBe(409);
      expect(await sharing({ cookie: renewed.session ?? "" })).toContain(
        "No clinic has access to your data.",
      );
    }, 90_000);

    it("a v2 account is never given another person's account, and learns its own", async () => {
      const { target } = pages(base);
      const other = await signInAttempt(base, "SandboxUser3", legacy.one?.cookie);
      expect(other.location).toBe("/auth/error?reason=other_account");
      expect(await target(legacy.one!)).toEqual({ low: 79, high: 179 });
      // Asked while refusing, its own connection named it SandboxUser1: a new browser reaches it.
      expect(await target(await signIn(base, "SandboxUser1"))).toEqual({ low: 79, high: 179 });
      // The defaults, in the unit of SandboxUser3's readings (mg/dL under API v3).
      expect(await target(await signIn(base, "SandboxUser3"))).toEqual({ low: 70, high: 180 });
    }, 60_000);
  });
});

/**
 * The race across processes: PostgreSQL only (PGlite belongs to one process, whose transactions
 * already take turns). Two v3 app processes on one database of their own, sign-ins of one account
 * completing at once through both: one account, one connection.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!adminUrl)("API v3 on PostgreSQL: two processes, sign-ins racing", () => {
  const servers: AppServer[] = [];
  let database: pg.Client;
  let url = "";
  const name = `glucose_accounts_${process.pid}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "glucose-accounts-pg-"));

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(adminUrl ?? "");
    u.pathname = `/${name}`;
    url = u.toString();
    await emptyDatabase(url);
    const first = await startAppServer({
      ...UNLIMITED_CALL_BUDGET,
      CGM_API_VERSION: "v3",
      DATABASE_URL: url,
      DATA_DIR: dataDir,
    });
    servers.push(first);
    servers.push(
      await startAppServer({
        ...UNLIMITED_CALL_BUDGET,
        CGM_API_VERSION: "v3",
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        APP_URL: first.url,
      }),
    );
    database = new pg.Client({ connectionString: url });
    await database.connect();
  }, 120_000);

  afterAll(async () => {
    await database?.end();
    for (const s of servers) await s.stop();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("makes one account with one connection", async () => {
    const base = servers[0]!.url;
    const started = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const { loginUrl, stateCookie } = await startSignIn(base);
        return { back: await authorizeAt(base, loginUrl, "SandboxUser5"), stateCookie };
      }),
    );
    // Half the callbacks go to the second process, as behind a load balancer.
    const done = await Promise.all(
      started.map((s, i) => {
        const back = new URL(s.back);
        if (i % 2) back.port = String(servers[1]!.port);
        return callback(back, s.stateCookie);
      }),
    );
    for (const res of done) expect(res.headers.get("location")).toBe("/dashboard");
    const accounts = await database.query<{ id: string; connections: number; sessions: number }>(`
      select u.id,
        (select count(*)::int from cgm_connections c where c.owner_id = u.id) as connections,
        (select count(*)::int from sessions s where s.user_id = u.id) as sessions
      from users u where u.service_user_hash is not null`);
    expect(accounts.rows).toHaveLength(1);
    expect(accounts.rows[0]).toMatchObject({ connections: 1, sessions: 8 });
    // The hash is what is stored, never the service's userId (a UUID).
    const stored = await database.query<{ h: string }>("select service_user_hash as h from users");
    for (const { h } of stored.rows) expect(h ?? "").not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  }, 90_000);
});
