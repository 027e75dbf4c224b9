/**
 * Errors the sandbox answers on purpose. OAuth endpoints answer RFC 6749 section 5.2 bodies;
 * data and management endpoints answer `{ error, message }` (the service does not show a shape).
 */
export class OAuthError extends Error {
  constructor(
    readonly code:
      | "invalid_request"
      | "invalid_client"
      | "invalid_grant"
      | "unauthorized_client"
      | "unsupported_grant_type"
      | "invalid_scope",
    readonly description: string,
    readonly status = code === "invalid_client" ? 401 : 400,
  ) {
    super(description);
  }
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
