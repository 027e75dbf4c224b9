import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { THRESHOLD_FIELDS } from "@/lib/clinic/domain/triage";
import { INPUT_LIMITS } from "@/lib/http/input";
import { type AppRoute, appRoutes } from "../support/app-routes";
import { clinicClient } from "../support/clinic-client";
import { signIn } from "../support/dashboard-client";
import { connect, type RegisteredApp, registerApp, sandboxSession } from "../support/sandbox-client";

/**
 * The whole HTTP surface under generated input (fast-check), against the real server: every route
 * of app/ (read from the folder, so new routes are covered without listing them), its dynamic
 * segments filled with generated values and the real ids of this file's own clinic, patient and
 * share, generated query strings, Origin, Sec-Fetch-Site and Content-Type headers, and bodies
 * (form, JSON, text, multipart, broken multipart, binary, empty, NUL and control characters,
 * long strings), anonymously and as a signed-in patient and clinician. Every answer must be below
 * 500, its Location and headers bounded and its body under a size limit.
 *
 * Half the generated requests ask the routes that read the service for a period at and beside
 * the limits of what one request may read (2000-01-01 to 2099-12-31, 90 days: lib/cgm/window-bounds.ts),
 * in every spelling the routes take (startDate/endDate as DateTimes or dates, from/to,
 * startDay/endDay, date, days): windows derived from those (the period before a compared one)
 * must not leave the limits unnoticed.
 *
 * Bounded in time: a fixed number of runs (FUZZ_RUNS) from a seed printed at the start and in a
 * failure (FUZZ_SEED=<seed> replays it; CI=true without it: a fixed seed), no shrinking (each
 * step is a request). The file signs in
 * its own patient and clinician and never touches the dashboard's own app at the sandbox, so the
 * suites that share the server keep their sessions and secrets.
 */

const base = inject("baseUrl");
/**
 * CI runs one fixed seed, so a red build is the code's doing and replays as it failed; elsewhere
 * each run explores a new seed. Either way the seed is printed, and FUZZ_SEED sets it.
 */
const CI_SEED = 20_001_201;
const SEED = Number(
  process.env.FUZZ_SEED ?? (process.env.CI === "true" ? CI_SEED : Math.floor(Math.random() * 2 ** 31)),
);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
/** No answer to a request of at most ~100 KB may be larger (the AGP PDF and pages are far below). */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** All of a response's headers together: proxies refuse far less than this (nginx: 4-8 KB). */
const MAX_HEADER_BYTES = 8 * 1024;
const USER = "SandboxUser6";

/**
 * Routes whose success ends or replaces a session, a connection or a share of this file's world
 * (sign-in and sign-up open a new session in place of the one sent, disconnect deletes the
 * connection): after one succeeds for a signed-in identity, the world is set up anew.
 */
const ENDS_THE_WORLD = new Set([
  "/api/auth/[...nextauth]",
  "/api/clinic/demo",
  "/api/clinic/sign-in",
  "/api/clinic/sign-up",
  "/api/clinic/patients/[patientId]/remove",
  "/api/connection/disconnect",
  "/api/sharing/[shareId]/withdraw",
  "/sandbox/permissions/revoke",
  "/sandbox/v3/oauth2/logout",
]);

const ROUTES = appRoutes().filter((r) => r.methods.length > 0);

type Identity = "anonymous" | "patient" | "clinician";

interface World {
  app: RegisteredApp;
  patientCookie: string;
  sandboxCookie: string;
  bearer: string;
  clinicianCookie: string;
  clinicId: string;
  patientId: string;
  shareId: string;
}

const clinic = clinicClient(base);
let world: World;
let stale = false;

/** This file's own patient (sharing with its own clinic), clinician and sandbox sign-in. */
async function buildWorld(app: RegisteredApp): Promise<World> {
  const patient = await signIn(base, USER);
  const tokens = await connect(base, app, USER);
  const admin = await clinic.clinician();
  const added = await clinic.post(
    "/api/clinic/patients",
    { clinicId: admin.clinicId, name: "Fuzz Patient" },
    { cookie: admin.cookie },
  );
  const page = await (
    await clinic.get(`/clinic?clinic=${admin.clinicId}`, `${admin.cookie}; ${clinic.noticeOf(added)}`)
  ).text();
  const link = /data-testid="patient-invitation-link"[^>]*value="([^"]+)"/.exec(page)?.[1] ?? "";
  const token = new URL(link.replaceAll("&amp;", "&")).searchParams.get("token") ?? "";
  const accepted = await clinic.post("/api/sharing/accept", { token }, { cookie: patient.cookie });
  expect(accepted.status).toBe(303);
  const sharing = await (await clinic.get("/sharing", patient.cookie)).text();
  return {
    app,
    patientCookie: patient.cookie,
    sandboxCookie: await sandboxSession(base, USER),
    bearer: tokens.access_token,
    clinicianCookie: admin.cookie,
    clinicId: admin.clinicId,
    patientId: /data-patient="([0-9a-f-]{36})"/.exec(page)?.[1] ?? "",
    shareId: decodeURIComponent(/\/api\/sharing\/([^/"]+)\/withdraw/.exec(sharing)?.[1] ?? ""),
  };
}

async function currentWorld(): Promise<World> {
  if (stale) {
    world = await buildWorld(world.app);
    stale = false;
  }
  return world;
}

// ---------------------------------------------------------------------------------------------
// Generated inputs

const NASTY = [
  "\u0000",
  "a\u0000b",
  "\u0001",
  "\r\n",
  "\t",
  "\u007f",
  "\u0085",
  "%",
  "%00",
  "%zz",
  "%E0%A4%A",
  "..",
  ".",
  "/",
  "//evil.example",
  "/.//evil.example",
  "\\",
  "'\"<>&",
  "é",
  "🙂",
  "\ud800",
  "null",
  "-1",
  "0",
  "1e309",
  "NaN",
  "[]",
  "{}",
  "true",
];

const isoTime = fc
  .date({ noInvalidDate: true, min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z") })
  .map((d) => d.toISOString().slice(0, 19));
const recentTime = fc
  .integer({ min: -120, max: 2 })
  .map((days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 19));

const DAY_MS = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const timeText = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const dayNumber = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / DAY_MS;

/**
 * Midnights at and beside the limits of the dates a request may read: the last days of 1999 and
 * the first weeks of 2000 (most often: a period there is compared with one in 1999), the last
 * month of 2099 and the first days of 2100, and the recent days the sandbox has data for.
 */
const edgeDay = fc
  .oneof(
    { weight: 3, arbitrary: fc.integer({ min: dayNumber(1999, 12, 25), max: dayNumber(2000, 2, 15) }) },
    { weight: 1, arbitrary: fc.integer({ min: dayNumber(2099, 12, 1), max: dayNumber(2100, 1, 7) }) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: -120, max: 2 }).map((d) => Math.floor(Date.now() / DAY_MS) + d),
    },
  )
  .map((day) => day * DAY_MS);

/** A period at the limits: its length just inside and outside 90 days, or short; either end on an edge day. */
const edgeWindow = fc
  .record({
    day: edgeDay,
    days: fc.constantFrom(0, 1, 7, 13, 14, 30, 89, 90, 91),
    seconds: fc.constantFrom(-1, 0, 1),
    endsThere: fc.boolean(),
  })
  .map(({ day, days, seconds, endsThere }) => {
    const length = days * DAY_MS + seconds * 1000;
    return endsThere
      ? { startMs: day - length, endMs: day, days }
      : { startMs: day, endMs: day + length, days };
  });

/** One edge date, as a DateTime or as a date field sends it. */
const edgeDate = fc
  .tuple(edgeDay, fc.boolean())
  .map(([day, asTime]) => (asTime ? timeText(day) : dayText(day)));

/**
 * The period in the spellings the routes read (the API's DateTimes or the forms' dates for
 * startDate/endDate, the export's from/to, the AGP form's startDay/endDay, the day view's date,
 * a number of days), most often with startDate/endDate, now and then with only some of them.
 */
const windowPairs = fc
  .tuple(edgeWindow, fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), fc.nat(3))
  .map(([w, asTime, dates, forms, days, both, which]) => {
    const pairs: Array<[string, string]> = [];
    if (which > 0) {
      const text = asTime ? timeText : dayText;
      pairs.push(["startDate", text(w.startMs)], ["endDate", text(w.endMs)]);
    }
    if (dates) pairs.push(["from", dayText(w.startMs)], ["to", dayText(w.endMs)]);
    if (forms) pairs.push(["startDay", dayText(w.startMs)], ["endDay", dayText(w.endMs)]);
    if (days) pairs.push(["days", String(w.days)]);
    if (both || pairs.length === 0) pairs.push(["date", dayText(which % 2 ? w.startMs : w.endMs)]);
    return pairs;
  });

const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 3000 }).map((n) => "x".repeat(n)) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 2, arbitrary: isoTime },
  { weight: 2, arbitrary: recentTime },
  { weight: 2, arbitrary: edgeDate },
  { weight: 1, arbitrary: fc.integer({ min: -1000, max: 100_000 }).map(String) },
);

/** A value from this file's world, by the name it goes under. */
const worldValue = (w: World, name: string): string | undefined =>
  (
    ({
      patientId: w.patientId,
      patient: w.patientId,
      shareId: w.shareId,
      clinicId: w.clinicId,
      clinic: w.clinicId,
      client_id: w.app.client_id,
      clientId: w.app.client_id,
      redirect_uri: w.app.redirectUri,
    }) as Record<string, string>
  )[name];

/**
 * %-encoding that also takes a lone surrogate (which encodeURIComponent refuses): sent as the
 * bytes of its UTF-16 code unit, which are not UTF-8, so the server sees a malformed escape.
 */
const encode = (s: string) =>
  encodeURIComponent(s.replace(/[\ud800-\udfff]/gu, "\ue000")).replaceAll("%EE%80%80", "%ED%A0%80");

const OWN_NAMES = new Set([
  "patientId",
  "patient",
  "shareId",
  "clinicId",
  "clinic",
  "client_id",
  "clientId",
  "redirect_uri",
]);
/** Stands for the world's value of a name; replaced when sent, since the world is set up anew at times. */
const ownMarker = (name: string) => `__own_${name}__`;
const withOwnValues = (w: World, s: string) =>
  s.replace(/__own_(\w+)__/g, (_m, name) => worldValue(w, name) ?? "x");

/** A value for `name`: often the world's own (so the request gets past the lookups), else generated. */
const valueFor = (name: string) =>
  OWN_NAMES.has(name)
    ? fc.oneof({ weight: 2, arbitrary: fc.constant(ownMarker(name)) }, { weight: 3, arbitrary: text })
    : text;

/** Every name a route reads a period by, in queries and in forms alike. */
const PERIOD_NAMES = ["startDate", "endDate", "days", "date", "from", "to", "startDay", "endDay", "period"];

const FIELD_NAMES = [
  ...Object.keys(THRESHOLD_FIELDS),
  "email",
  "password",
  "name",
  "clinicName",
  "invitation",
  "token",
  "clinicId",
  "role",
  "birthDate",
  "returnTo",
  "unit",
  "low",
  "high",
  "action",
  "username",
  "next",
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "decision",
  "code_challenge",
  "code_challenge_method",
  "grant_type",
  "code",
  "refresh_token",
  "client_secret",
  "code_verifier",
  ...PERIOD_NAMES,
  "reason",
  "error",
  "redirectUris",
  "targetRanges",
];

const fieldName = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...FIELD_NAMES) },
  { weight: 1, arbitrary: text },
);
const fields: fc.Arbitrary<ReadonlyArray<readonly [string, string]>> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.array(
      fieldName.chain((name) => valueFor(name).map((value) => [name, value] as const)),
      { maxLength: 6 },
    ),
  },
  { weight: 1, arbitrary: windowPairs },
);

/** Printable ASCII only: fetch itself refuses other header values. */
const headerValue = (values: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...values) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 30 }).filter((s) => /^[ -~]*$/.test(s)),
    },
  );

const FORM = "application/x-www-form-urlencoded";
const CONTENT_TYPES = [
  FORM,
  "multipart/form-data",
  "multipart/form-data; boundary=fuzz",
  "multipart/form-data; boundary=other",
  "application/json",
  "text/plain",
  "application/octet-stream",
  `${FORM}; charset=utf-16`,
  "garbage/;;;",
];

type Body = { kind: string; payload?: string | Uint8Array; contentType?: string };

const multipart = (entries: ReadonlyArray<readonly [string, string]>, file: boolean, broken: boolean) => {
  const parts = entries.map(
    ([k, v], i) =>
      `--fuzz\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, "")}"${file && i === 0 ? '; filename="f.bin"' : ""}\r\n\r\n${v}\r\n`,
  );
  const whole = `${parts.join("")}--fuzz--\r\n`;
  return broken ? whole.slice(0, Math.max(3, Math.floor(whole.length / 2))) : whole;
};

const body: fc.Arbitrary<Body> = fc.oneof(
  fc.constant<Body>({ kind: "none" }),
  fc.constant<Body>({ kind: "empty", payload: "" }),
  fields.map<Body>((f) => ({
    kind: "form",
    payload: new URLSearchParams(f as [string, string][]).toString(),
    contentType: FORM,
  })),
  fc.tuple(fields, fc.boolean(), fc.boolean()).map<Body>(([f, file, broken]) => ({
    kind: "multipart",
    payload: multipart(f, file, broken),
    contentType: "multipart/form-data; boundary=fuzz",
  })),
  fc
    .oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fields.map((f) => Object.fromEntries(f)),
    )
    .map<Body>((v) => ({
      kind: "json",
      payload: JSON.stringify(v) ?? "null",
      contentType: "application/json",
    })),
  text.map<Body>((t) => ({ kind: "text", payload: t, contentType: "text/plain" })),
  fc
    .uint8Array({ maxLength: 512 })
    .map<Body>((b) => ({ kind: "binary", payload: b, contentType: "application/octet-stream" })),
  fc
    .constantFrom(20_000, 70_000)
    .map<Body>((n) => ({ kind: "long", payload: `a=${"x".repeat(n)}`, contentType: FORM })),
);

interface Case {
  route: AppRoute;
  identity: Identity;
  method: string;
  path: string;
  query: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  contentType: string | undefined;
  body: Body;
}

/** A path for the route: dynamic segments filled, each value %-encoded, or now and then sent raw. */
const pathFor = (route: AppRoute) =>
  fc
    .tuple(
      ...route.segments.map((s) => {
        if (s.kind === "static") return fc.constant(s.value);
        const one = fc
          .tuple(valueFor(s.name), fc.integer({ min: 0, max: 9 }))
          .map(([v, r]) => (r === 0 ? v.replace(/[/?#\s]/g, "") || "x" : encode(v)));
        return s.kind === "dynamic"
          ? one
          : fc.array(one, { minLength: 1, maxLength: 3 }).map((a) => a.join("/"));
      }),
    )
    .map((parts) => `/${parts.join("/")}`);

const QUERY_NAMES = [
  ...PERIOD_NAMES,
  "targets",
  "paper",
  "clinic",
  "token",
  "returnTo",
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "code",
  "error",
  "reason",
  "unit",
  "patient",
  "next",
  "range",
  "version",
  "login_error",
  "code_challenge",
  "code_challenge_method",
];

const queryFor = fc
  .array(
    fc
      .oneof({ weight: 5, arbitrary: fc.constantFrom(...QUERY_NAMES) }, { weight: 1, arbitrary: text })
      .chain((name) => valueFor(name).map((value) => `${encode(name)}=${encode(value)}`)),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length ? `?${pairs.join("&")}` : ""));

/** The period at the limits as a query, now and then with one generated pair besides. */
const windowQuery = fc.tuple(windowPairs, fc.option(queryFor, { freq: 4 })).map(([pairs, extra]) => {
  const own = pairs.map(([k, v]) => `${k}=${encode(v)}`).join("&");
  return `?${own}${extra ? `&${extra.slice(1)}` : ""}`;
});

/**
 * The routes that read the service for a period: the patient's pages and the clinic's patient
 * pages, and the APIs of the reports, the dashboard, the service proxy and the clinic's patients.
 * Not the PDFs: each prints its report page (in this list) in a browser, which would double the
 * fuzz's run time for no route of its own; the general cases still reach them.
 */
const WINDOW_ROUTES = ROUTES.filter(
  (r) =>
    r.methods.includes("GET") &&
    !r.pattern.endsWith("/agp-pdf") &&
    /^\/(dashboard|reports|clinic\/patients\/\[patientId\]|api\/(reports|dashboard|cgm|clinic\/patients\/\[patientId\]\/(export|summary)))(\/|$)/.test(
      r.pattern,
    ),
);

/** What the service proxy's catch-all path reads. */
const SERVICE_PATHS = [
  "v2/users/self/egvs",
  "v3/users/self/egvs",
  "v1/users/self/events",
  "v2/users/self/events",
  "v2/users/self/calibrations",
  "v2/users/self/devices",
  "v2/users/self/statistics",
];

/** A path for a route that reads a period: the world's own ids, the proxy's real paths. */
const ownPathFor = (route: AppRoute) =>
  fc
    .tuple(
      ...route.segments.map((s) =>
        s.kind === "static"
          ? fc.constant(s.value)
          : s.kind === "dynamic"
            ? fc.constant(encodeURIComponent(ownMarker(s.name)))
            : fc.constantFrom(...SERVICE_PATHS),
      ),
    )
    .map((parts) => `/${parts.join("/")}`);

/** Such a route asked for a period at the limits, mostly by the identity it is for. */
const windowCase: fc.Arbitrary<Case> = fc.constantFrom(...WINDOW_ROUTES).chain((route) =>
  fc.record({
    route: fc.constant(route),
    identity: fc.oneof(
      {
        weight: 5,
        arbitrary: fc.constant<Identity>(route.pattern.includes("clinic") ? "clinician" : "patient"),
      },
      { weight: 1, arbitrary: fc.constantFrom<Identity>("anonymous", "patient", "clinician") },
    ),
    method: fc.constant("GET"),
    path: ownPathFor(route),
    query: windowQuery,
    origin: fc.constant<string | undefined>(base),
    secFetchSite: fc.constant<string | undefined>(undefined),
    contentType: fc.constant<string | undefined>(undefined),
    body: fc.constant<Body>({ kind: "none" }),
  }),
);

const generalCase: fc.Arbitrary<Case> = fc.constantFrom(...ROUTES).chain((route) =>
  fc.record({
    route: fc.constant(route),
    identity: fc.constantFrom<Identity>("anonymous", "patient", "clinician"),
    method: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...route.methods) },
      { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "DELETE") },
    ),
    path: pathFor(route),
    query: queryFor,
    origin: fc.option(
      headerValue([base, "https://evil.example", "null", base.replace("localhost", "127.0.0.1")]),
      {
        nil: undefined,
      },
    ),
    secFetchSite: fc.option(headerValue(["same-origin", "same-site", "cross-site", "none"]), {
      nil: undefined,
    }),
    // Mostly the body's own type; now and then another, or none.
    contentType: fc.option(headerValue(CONTENT_TYPES), { nil: undefined, freq: 3 }),
    body,
  }),
);

const anyCase: fc.Arbitrary<Case> = fc.oneof(generalCase, windowCase);

// ---------------------------------------------------------------------------------------------
// One request and what every answer must hold

let address = 0;
const net = `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;

async function send(w: World, c: Case): Promise<void> {
  const headers: Record<string, string> = { "X-Forwarded-For": `${net}.${++address % 256}` };
  if (c.identity === "patient") {
    headers.Cookie = `${w.patientCookie}; ${w.sandboxCookie}`;
    if (c.route.pattern.startsWith("/sandbox/v")) headers.Authorization = `Bearer ${w.bearer}`;
  }
  if (c.identity === "clinician") headers.Cookie = w.clinicianCookie;
  if (c.origin !== undefined) headers.Origin = c.origin;
  if (c.secFetchSite !== undefined) headers["Sec-Fetch-Site"] = c.secFetchSite;
  const contentType = c.contentType ?? c.body.contentType;
  const hasBody = c.body.payload !== undefined && c.method !== "GET" && c.method !== "HEAD";
  if (hasBody && contentType) headers["Content-Type"] = contentType;
  const url = withOwnValues(w, `${c.path}${c.query}`);
  const payload = typeof c.body.payload === "string" ? withOwnValues(w, c.body.payload) : c.body.payload;
  const what = `${c.method} ${url} as ${c.identity} (${c.route.pattern}, ${c.body.kind} body, Content-Type ${contentType})`;
  const res = await fetch(`${base}${url}`, {
    method: c.method,
    redirect: "manual",
    headers,
    body: hasBody ? (payload as BodyInit) : undefined,
    signal: AbortSignal.timeout(25_000),
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (process.env.FUZZ_STATS)
    console.log(`STAT ${res.status} ${c.identity} ${c.route.pattern} ${c.body.kind}`);
  if (res.status >= 500) {
    throw new Error(`${what}: ${res.status}`);
  }
  // A Location may carry the request's own URL back (Next redirects a path with "//" to its
  // normalized, re-encoded form before any of our code runs): bounded by the limit, or by that
  // URL with each character %-encoded at worst.
  const location = res.headers.get("location") ?? "";
  expect(location.length, `${what}: Location of ${location.length} characters`).toBeLessThanOrEqual(
    Math.max(INPUT_LIMITS.url, 3 * url.length),
  );
  let headerBytes = 0;
  res.headers.forEach((value, name) => {
    headerBytes += name.length + value.length + 4;
  });
  expect(headerBytes, `${what}: ${headerBytes} bytes of headers`).toBeLessThanOrEqual(MAX_HEADER_BYTES);
  expect(bytes, `${what}: a body of ${bytes} bytes`).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
  if (c.identity !== "anonymous" && ENDS_THE_WORLD.has(c.route.pattern) && res.status < 400) stale = true;
}

beforeAll(async () => {
  world = await buildWorld(await registerApp(base, "Fuzz app"));
}, 60_000);

describe("the HTTP surface under generated input", () => {
  it("finds every route of app/, dynamic ones included", () => {
    const patterns = ROUTES.map((r) => r.pattern);
    expect(patterns).toContain("/api/clinic/patients/[patientId]/summary");
    expect(patterns).toContain("/sandbox/v3/oauth2/consent/decision");
    expect(patterns).toContain("/clinic/patients/[patientId]");
    expect(ROUTES.find((r) => r.pattern === "/api/reports/statistics-windows")?.methods).toEqual([
      "GET",
      "POST",
    ]);
    expect(ROUTES.length).toBeGreaterThan(60);
  });

  it("every route, as every identity, with a NUL in each part and each kind of body: no 5xx", async () => {
    const w = await currentWorld();
    const identities: Identity[] = ["anonymous", "patient", "clinician"];
    for (const route of ROUTES) {
      for (const method of route.methods) {
        for (const identity of identities) {
          const path = `/${route.segments.map((s) => (s.kind === "static" ? s.value : "a%00b")).join("/")}`;
          const own = `/${route.segments.map((s) => (s.kind === "static" ? s.value : encodeURIComponent(ownMarker(s.name)))).join("/")}`;
          const plain = {
            route,
            identity,
            method,
            origin: base,
            secFetchSite: undefined,
            contentType: undefined,
          };
          for (const c of [
            { ...plain, path, query: "", body: { kind: "none" } },
            { ...plain, path: own, query: "?startDate=%00&clinic=%00", body: { kind: "none" } },
            {
              ...plain,
              path: own,
              query: "",
              body: { kind: "form", payload: "clinicId=a%00b&name=%01", contentType: FORM },
            },
            {
              ...plain,
              path: own,
              query: "",
              body: { kind: "json", payload: '{"a":"\\u0000"}', contentType: "application/json" },
            },
            {
              ...plain,
              path: own,
              query: "",
              body: { kind: "text", payload: "hello", contentType: "text/plain" },
            },
          ]) {
            await send(w, c);
            if (stale) await currentWorld();
          }
        }
      }
    }
  }, 300_000);

  it(`${RUNS} generated requests (seed ${SEED}): no 5xx, bounded Location, headers and bodies`, async () => {
    console.log(`fuzz: seed ${SEED}, ${RUNS} runs (replay with FUZZ_SEED=${SEED})`);
    await fc.assert(
      fc.asyncProperty(fc.noShrink(anyCase), async (c) => {
        await send(await currentWorld(), c);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);
});
