import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceConfig } from "./config";
import { refreshTokens, TokenRequestError } from "./oauth";
import { oauthErrorCodeOf } from "./oauth-error";

/**
 * The token endpoint's answers as the refresh reads them, from a local stand-in of the service:
 * a token response without the sandbox's Keycloak-style extras (notes §1.4) and error bodies that
 * are not RFC 6749's (notes §5.10, "non-conformant OAuth error response").
 */

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
let answer: Answer;
let server: Server;
let config: ServiceConfig;

beforeAll(async () => {
  server = createServer((_, res) => {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  config = {
    baseUrl: `http://127.0.0.1:${port}`,
    clientId: "client",
    clientSecret: "secret",
    redirectUri: "http://localhost/callback",
    maxWindowDays: 90,
    maxRequestDays: 90,
    apiVersion: "v3",
  };
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const json = { "Content-Type": "application/json" };
const text = { "Content-Type": "text/plain" };

async function refused(a: Answer): Promise<TokenRequestError> {
  answer = a;
  const e = await refreshTokens("old", config).catch((error: unknown) => error);
  if (!(e instanceof TokenRequestError)) throw new Error(`not a TokenRequestError: ${String(e)}`);
  return e;
}

describe("a token response with the four documented fields only (notes §1.4)", () => {
  it("is accepted by the refresh", async () => {
    answer = {
      status: 200,
      headers: json,
      body: JSON.stringify({ access_token: "a", expires_in: 7200, token_type: "Bearer", refresh_token: "r" }),
    };
    const tokens = await refreshTokens("old", config);
    expect(tokens).toMatchObject({ access_token: "a", refresh_token: "r", expires_in: 7200 });
  });
});

describe("token refusals (notes §5.10): only invalid_grant asks the patient to reconnect", () => {
  it("reads RFC 6749's own shape", async () => {
    const e = await refused({ status: 400, headers: json, body: '{"error":"invalid_grant"}' });
    expect([e.code, e.status, e.isFinal]).toEqual(["invalid_grant", 400, true]);
  });

  it.each([
    ["JSON sent as text/plain", text, '{"error":"invalid_grant","error_description":"expired"}'],
    ["a nested code", json, '{"error":{"code":"invalid_grant","message":"Refresh token expired"}}'],
    ["a list of errors", json, '{"errors":[{"error":"invalid_grant"}]}'],
    ["a form-encoded body", { "Content-Type": "application/x-www-form-urlencoded" }, "error=invalid_grant"],
    ["a Go client's words", text, 'oauth2: "invalid_grant" "Refresh token has expired"'],
  ])("reads invalid_grant from %s", async (_, headers, body) => {
    const e = await refused({ status: 400, headers, body });
    expect([e.code, e.status, e.isFinal]).toEqual(["invalid_grant", 400, true]);
  });

  it("asks for a reconnect on an invalid_grant sent with a 401", async () => {
    const e = await refused({ status: 401, headers: json, body: '{"error":"invalid_grant"}' });
    expect([e.code, e.status, e.isFinal]).toEqual(["invalid_grant", 401, true]);
  });

  it("reads a 401 with a WWW-Authenticate challenge as the client's refusal, not an outage", async () => {
    const e = await refused({
      status: 401,
      headers: { ...json, "WWW-Authenticate": 'Basic realm="token"' },
      body: '{"error":"invalid_client"}',
    });
    expect([e.code, e.status, e.isFinal]).toEqual(["invalid_client", 401, false]);
  });

  it.each(["unauthorized_client", "invalid_client", "invalid_request"])(
    "does not ask for a reconnect on %s: the app's problem, not the patient's token",
    async (code) => {
      const e = await refused({ status: 400, headers: json, body: JSON.stringify({ error: code }) });
      expect([e.code, e.isFinal]).toEqual([code, false]);
    },
  );

  it("keeps a 400 that names no OAuth error a malformed answer, which does not disconnect", async () => {
    const e = await refused({
      status: 400,
      headers: { "Content-Type": "text/html" },
      body: "<h1>Bad Request</h1>",
    });
    expect([e.code, e.status, e.isFinal]).toEqual(["malformed_response", 502, false]);
  });
});

describe("oauthErrorCodeOf", () => {
  it.each([
    ['{"error":"invalid_grant"}', "invalid_grant"],
    ['{"code":"invalid_request"}', "invalid_request"],
    ["error=unauthorized_client&error_description=x", "unauthorized_client"],
    ["invalid_grant", "invalid_grant"],
    ['{"error":"not_a_code"}', null],
    ["invalid_grant or invalid_request", null],
    ["my_invalid_grant_x", null],
    ["", null],
  ])("%j → %j", (body, code) => {
    expect(oauthErrorCodeOf(body)).toBe(code);
  });
});
