/**
 * Drives the sandbox over HTTP the way a browser and a client app would: register an app, sign in
 * as a sandbox user, allow or deny, exchange the code. Used by the HTTP suites and benchmarks.
 */
export interface RegisteredApp {
  client_id: string;
  client_secret: string;
  redirectUri: string;
}

export const REDIRECT_URI = "http://127.0.0.1:9/callback";

export async function registerApp(baseUrl: string, name = "Test app"): Promise<RegisteredApp> {
  const res = await fetch(`${baseUrl}/sandbox/developer/apps`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, redirectUris: [REDIRECT_URI] }),
  });
  if (res.status !== 201) throw new Error(`registerApp: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { client_id: string; client_secret: string };
  return { ...body, redirectUri: REDIRECT_URI };
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
  const login = await fetch(`${baseUrl}/sandbox/v3/oauth2/login/submit`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: baseUrl },
    body: new URLSearchParams({ ...params, username: o.username ?? "SandboxUser1" }),
  });
  if (login.status !== 303) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const decision = await fetch(`${baseUrl}/sandbox/v3/oauth2/consent/decision`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: baseUrl, Cookie: cookie },
    body: new URLSearchParams({ ...params, decision: o.decision ?? "allow" }),
  });
  const location = decision.headers.get("location");
  if (decision.status !== 302 || !location)
    throw new Error(`consent: ${decision.status} ${await decision.text()}`);
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

export function basic(app: RegisteredApp): HeadersInit {
  return {
    Authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString("base64")}`,
  };
}

/** DateTime text (YYYY-MM-DDThh:mm:ss) for a millisecond time. */
export function dt(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}
