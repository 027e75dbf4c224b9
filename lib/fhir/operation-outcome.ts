import type { OperationOutcome, OperationOutcomeIssue } from "@medplum/fhirtypes";

/**
 * An API error `{ error, message }` as FHIR's OperationOutcome, for a FHIR client (one that asks
 * for application/fhir+json) of the FHIR export: FHIR clients show an OperationOutcome's
 * details.text and act on its issue code; the dashboard's own error code goes as diagnostics.
 */

/** FHIR R4 issue-type by HTTP status: what a FHIR client reads to decide whether to retry. */
function issueCode(status: number): OperationOutcomeIssue["code"] {
  if (status === 401) return "login";
  if (status === 403) return "forbidden";
  if (status === 404) return "not-found";
  if (status === 429) return "throttled";
  if (status >= 500) return "transient";
  return "invalid";
}

export function operationOutcome(status: number, error: string, message: string): OperationOutcome {
  return {
    resourceType: "OperationOutcome",
    issue: [{ severity: "error", code: issueCode(status), details: { text: message }, diagnostics: error }],
  };
}

/** A client that asks for FHIR's JSON and not for a page. */
export const wantsFhir = (accept: string | null) =>
  (accept ?? "").includes("application/fhir+json") && !(accept ?? "").includes("text/html");
