/**
 * Drives the sandbox over HTTP the way a browser and a client app would: register an app, sign in
 * as a sandbox user, allow or deny, exchange the code. Used by the HTTP suites and benchmarks.
 */
export interface RegisteredApp {
  client_id: string;
  client_secret: string;
  redirectUri: string;
}

/**
 * A client that exists nowhere: only the URL matters over HTTP, and browser tests answer it with
 * page.route. (A port such as 9 would not do: browsers refuse "unsafe" ports before any route.)
 */
export const REDIRECT_URI = "https://client.example/callback";

export async function registerApp(
  baseUrl: string,
  name = "Test app",
  redirectUri = REDIRECT_URI,
): Promise<RegisteredApp> {
  const res = await fetch(`${baseUrl}/sandbox/developer/apps`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, redirectUris: [redirectUri] }),
  });
  if (res.status !== 201) throw new Error(`registerApp: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { client_id: string; client_secret: string };
  return { ...body, redirectUri };
}

export interface AuthorizeOptions {
  username?: string;
  decision?: "allow" | "deny";
  state?: string;
  codeChallenge?: string;
  extra?: Record<string, string>;
}

/** Signs in at the sandbox and answers the consent page; returns the redirect back to the client. */
export async function authorize(baseUrl: string, app: RegisteredApp, o: AuthorizeOptions = {}): Promise<URL> {
  const params: Record<string, string> = {
    client_id: app.client_id,
    redirect_uri: app.redirectUri,
    response_type: "code",
    scope: "offline_access",
    ...(o.state === undefined ? {} : { state: o.state }),
    ...(o.codeChallenge ? { code_challenge: o.codeChallenge, code_challenge_method: "S256" } : {}),
    ...o.extra,
  };
  return answerLogin(baseUrl, params, o.username ?? "SandboxUser1", o.decision ?? "allow");
}

/**
 * The sandbox's login and consent pages as a browser answers them, for the login URL's parameters
 * `params`; returns where the sandbox sends the browser back to.
 */
export async function answerLogin(
  baseUrl: string,
  params: Record<string, string>,
  username: string,
  decision: "allow" | "deny",
): Promise<URL> {
  const login = await fetch(`${baseUrl}/sandbox/v3/oauth2/login/submit`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: baseUrl },
    body: new URLSearchParams({ ...params, username }),
  });
  if (login.status !== 303) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const answer = await fetch(`${baseUrl}/sandbox/v3/oauth2/consent/decision`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: baseUrl, Cookie: cookie },
    body: new URLSearchParams({ ...params, decision }),
  });
  const location = answer.headers.get("location");
  if (answer.status !== 302 || !location) throw new Error(`consent: ${answer.status} ${await answer.text()}`);
  return new URL(location);
}

export async function tokenRequest(baseUrl: string, form: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/sandbox/v3/oauth2/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
}

export async function exchangeCode(baseUrl: string, app: RegisteredApp, code: string): Promise<Response> {
  return tokenRequest(baseUrl, {
    grant_type: "authorization_code",
    code,
    redirect_uri: app.redirectUri,
    client_id: app.client_id,
    client_secret: app.client_secret,
  });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** Registers nothing: authorizes `app` for `username` and exchanges the code. */
export async function connect(
  baseUrl: string,
  app: RegisteredApp,
  username = "SandboxUser1",
): Promise<Tokens> {
  const back = await authorize(baseUrl, app, { username });
  const code = back.searchParams.get("code");
  if (!code) throw new Error(`no code in ${back}`);
  const res = await exchangeCode(baseUrl, app, code);
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return (await res.json()) as Tokens;
}

export function bearer(token: string): HeadersInit {
  return { Authorization: `Bearer ${token}` };
}

/**
 * The service's own answers for a sandbox user, read straight from the sandbox as another app of
 * that user (the data is the user's, whatever the app): what the suites compare the dashboard
 * with, whichever API version the dashboard reads the service with (CGM_API_VERSION). Answers
 * like `proxyGet`, for a path below /sandbox, e.g. `v2/users/self/egvs?…`.
 */
export async function serviceReader(base: string, username: string) {
  const app = await registerApp(base, "Reference reader");
  const { access_token } = await connect(base, app, username);
  return (pathAndQuery: string, init: RequestInit = {}) =>
    fetch(`${base}/sandbox/${pathAndQuery.replace(/^\//, "")}`, {
      ...init,
      headers: { ...bearer(access_token), ...(init.headers ?? {}) },
    });
}

export function basic(app: RegisteredApp): HeadersInit {
  return {
    Authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString("base64")}`,
  };
}

/** DateTime text (YYYY-MM-DDThh:mm:ss) for a millisecond time. */
export function dt(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** The sandbox's session cookie (`name=value`) of `username`, signed in at the login form. */
export async function sandboxSession(baseUrl: string, username: string): Promise<string> {
  const login = await fetch(`${baseUrl}/sandbox/v3/oauth2/login/submit`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: baseUrl },
    body: new URLSearchParams({ username, next: "/sandbox/permissions" }),
  });
  if (login.status !== 303) throw new Error(`sandbox login: ${login.status}`);
  return (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
}

/** A sandbox user signs in to the Permissions page and revokes an app, as in a browser. */
export async function revokeAppAs(baseUrl: string, clientId: string, username: string): Promise<void> {
  const login = await fetch(`${baseUrl}/sandbox/v3/oauth2/login/submit`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: baseUrl },
    body: new URLSearchParams({ username, next: "/sandbox/permissions" }),
  });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const res = await fetch(`${baseUrl}/sandbox/permissions/revoke`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: baseUrl, Cookie: cookie },
    body: new URLSearchParams({ client_id: clientId }),
  });
  if (res.status >= 400) throw new Error(`revoke: ${res.status}`);
}

/** A v2 statistics body with two time-of-day windows that cover the day: Day 06–22, Night 22–06. */
export const DAY_NIGHT_STATISTICS = {
  targetRanges: [
    {
      name: "Day",
      startTime: "06:00:00",
      endTime: "22:00:00",
      egvRanges: [
        { name: "urgentLow", bound: 55 },
        { name: "low", bound: 70 },
        { name: "high", bound: 180 },
      ],
    },
    {
      name: "Night",
      startTime: "22:00:00",
      endTime: "06:00:00",
      egvRanges: [
        { name: "urgentLow", bound: 55 },
        { name: "low", bound: 80 },
        { name: "high", bound: 200 },
      ],
    },
  ],
};
