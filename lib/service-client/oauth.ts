import "server-only";
import * as oauth from "oauth4webapi";
import { type TokenResponse, tokenResponseSchema } from "@/lib/cgm";
import { type ServiceConfig, serviceConfig } from "./config";
import { oauthErrorCodeOf } from "./oauth-error";

/**
 * The one code path for the authorization-code exchange and every refresh (oauth4webapi,
 * client_secret in the form body: the service reads it there, and ClientSecretBasic would
 * percent-encode it). Every token response is also checked against the service's schema, so a
 * malformed answer is refused before anything is stored.
 */

export class TokenRequestError extends Error {
  constructor(
    /** "invalid_grant" and friends from the service, or "malformed_response" / "unavailable". */
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }

  /**
   * The refresh token is dead for good (revoked, reused, expired): the patient must reconnect.
   * Only invalid_grant says so (notes §5.10); unauthorized_client is about the app's registration,
   * which a patient's reconnect cannot mend, and would disconnect every patient at once.
   */
  get isFinal(): boolean {
    // 400 is RFC 6749's status; a non-conformant service may send its invalid_grant with a 401.
    return (this.status === 400 || this.status === 401) && this.code === "invalid_grant";
  }
}

function endpoints(config: ServiceConfig) {
  const as: oauth.AuthorizationServer = {
    issuer: config.baseUrl,
    authorization_endpoint: `${config.baseUrl}/v3/oauth2/login`,
    token_endpoint: `${config.baseUrl}/v3/oauth2/token`,
  };
  const client: oauth.Client = { client_id: config.clientId };
  // http is allowed only for a service on this machine (the embedded sandbox in development).
  const insecure = new URL(config.baseUrl).protocol === "http:";
  return {
    as,
    client,
    auth: oauth.ClientSecretPost(config.clientSecret),
    options: { [oauth.allowInsecureRequests]: insecure },
  };
}

export interface AuthorizationStart {
  url: string;
  state: string;
  codeVerifier: string;
}

/** A fresh state and PKCE verifier per attempt, and the URL to send the browser to. */
export async function startAuthorization(config = serviceConfig()): Promise<AuthorizationStart> {
  const state = oauth.generateRandomState();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const url = new URL(`${config.baseUrl}/v3/oauth2/login`);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: config.redirectUri,
    response_type: "code",
    scope: "offline_access",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  }).toString();
  return { url: url.toString(), state, codeVerifier };
}

/**
 * The error of a 4xx token answer oauth4webapi could not read as OAuth's: JSON under another
 * content type, a nested or form-encoded code, a plain-text one, or a 401 with a WWW-Authenticate
 * challenge (RFC 6749 allows it for invalid_client). Null when it names no OAuth error.
 */
async function nonConformantRefusal(e: unknown): Promise<TokenRequestError | null> {
  const response =
    e instanceof oauth.WWWAuthenticateChallengeError
      ? e.response
      : e instanceof oauth.OperationProcessingError && e.cause instanceof Response
        ? e.cause
        : null;
  if (!response || response.status < 400 || response.status > 499 || response.bodyUsed) return null;
  const challenged =
    e instanceof oauth.WWWAuthenticateChallengeError
      ? e.cause.map((c) => c.parameters.error).find((code) => code !== undefined)
      : undefined;
  const code =
    oauthErrorCodeOf(await response.text().catch(() => "")) ??
    (challenged ? oauthErrorCodeOf(challenged) : null);
  if (!code) return null;
  return new TokenRequestError(code, response.status, `The service refused the token request (${code}).`);
}

async function checked(run: () => Promise<oauth.TokenEndpointResponse>): Promise<TokenResponse> {
  let raw: oauth.TokenEndpointResponse;
  try {
    raw = await run();
  } catch (e) {
    if (e instanceof oauth.ResponseBodyError) {
      throw new TokenRequestError(e.error, e.status, `The service refused the token request (${e.error}).`);
    }
    if (e instanceof oauth.AuthorizationResponseError) {
      throw new TokenRequestError(e.error, 400, `The authorization was not granted (${e.error}).`);
    }
    // A refusal whose body is not RFC 6749's (notes §5.10) is still a refusal: its code decides
    // whether the patient must reconnect (invalid_grant), so it is read before giving up on it.
    const refusal = await nonConformantRefusal(e);
    if (refusal) throw refusal;
    if (e instanceof oauth.OperationProcessingError || e instanceof TypeError) {
      throw new TokenRequestError("malformed_response", 502, "The service's token response was not valid.");
    }
    throw new TokenRequestError("unavailable", 503, "The service could not be reached for a token.");
  }
  const parsed = tokenResponseSchema.safeParse(raw);
  if (!parsed.success) {
    throw new TokenRequestError(
      "malformed_response",
      502,
      "The service's token response lacks required fields.",
    );
  }
  return parsed.data;
}

/** Step 3: the callback's URL (code, state) and the verifier of the attempt → tokens. */
export async function exchangeAuthorizationCode(
  callbackUrl: URL,
  expectedState: string,
  codeVerifier: string,
  config = serviceConfig(),
): Promise<TokenResponse> {
  const { as, client, auth, options } = endpoints(config);
  // A callback whose state is not this browser's attempt is refused before the code is spent.
  if (callbackUrl.searchParams.get("state") !== expectedState) {
    throw new TokenRequestError(
      "state_mismatch",
      400,
      "The sign-in answer does not belong to this sign-in attempt.",
    );
  }
  return checked(async () => {
    const params = oauth.validateAuthResponse(as, client, callbackUrl, expectedState);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      auth,
      params,
      config.redirectUri,
      codeVerifier,
      options,
    );
    return oauth.processAuthorizationCodeResponse(as, client, response);
  });
}

/** Step 4: spends the refresh token once; the caller must store the new pair. */
export async function refreshTokens(refreshToken: string, config = serviceConfig()): Promise<TokenResponse> {
  const { as, client, auth, options } = endpoints(config);
  return checked(async () => {
    const response = await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, options);
    return oauth.processRefreshTokenResponse(as, client, response);
  });
}
