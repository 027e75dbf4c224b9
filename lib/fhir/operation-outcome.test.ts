import { describe, expect, it } from "vitest";
import { operationOutcome, wantsFhir } from "./operation-outcome";

describe("operationOutcome", () => {
  it("carries the message for people, the code for the client's retry, the API's code as diagnostics", () => {
    expect(operationOutcome(404, "no_data", "Nothing to export.")).toEqual({
      resourceType: "OperationOutcome",
      issue: [
        {
          severity: "error",
          code: "not-found",
          details: { text: "Nothing to export." },
          diagnostics: "no_data",
        },
      ],
    });
    const codes = [400, 401, 403, 404, 429, 503].map((s) => operationOutcome(s, "e", "m").issue[0]?.code);
    expect(codes).toEqual(["invalid", "login", "forbidden", "not-found", "throttled", "transient"]);
  });

  it("is for clients that ask for FHIR's JSON, never for a browser", () => {
    expect(wantsFhir("application/fhir+json")).toBe(true);
    expect(wantsFhir("application/fhir+json, application/json;q=0.9")).toBe(true);
    expect(wantsFhir("application/json")).toBe(false);
    expect(wantsFhir("text/html,application/fhir+json")).toBe(false);
    expect(wantsFhir(null)).toBe(false);
  });
});
