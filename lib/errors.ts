/**
 * Errors of the domain (clinics, accounts), thrown by code that knows nothing of requests: the
 * API's one error mapping (lib/api/errors.ts) turns each into its answer, so a domain module never
 * imports the HTTP edge that calls it.
 */

/** The signed-in person may not do this (not an administrator of the clinic, say). */
export class NotPermitted extends Error {
  override name = "NotPermitted";
  /** 403, the number HTTP gives this refusal, so every reader (the API, tests) names it alike. */
  readonly status = 403;
}

/** What the signed-in person asked for is not among what they may see (or does not exist: not told apart). */
export class NotFound extends Error {
  override name = "NotFound";
  readonly status = 404;
}
