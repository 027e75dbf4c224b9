import { describe, expect, it } from "vitest";
import { canReadData, clinicPatientStatus, type PatientStatusInput, syncFailureOf } from "./patient-status";

const NOW = Date.parse("2026-11-23T12:00:00Z");
const at = (iso: string) => new Date(iso);
const row = (over: Partial<PatientStatusInput>): PatientStatusInput => ({
  acceptedAt: null,
  withdrawnAt: null,
  inviteExpiresAt: null,
  connectionStatus: null,
  ...over,
});

describe("clinicPatientStatus", () => {
  it("an invitation is out until the instant it expires", () => {
    expect(clinicPatientStatus(row({ inviteExpiresAt: at("2026-11-23T12:00:00.001Z") }), NOW)).toBe(
      "invited",
    );
    expect(clinicPatientStatus(row({ inviteExpiresAt: at("2026-11-23T12:00:00Z") }), NOW)).toBe(
      "invitation_expired",
    );
    expect(clinicPatientStatus(row({}), NOW)).toBe("invitation_expired");
  });

  it("an accepted patient shares while the connection is active, and needs to reconnect when it is not", () => {
    const accepted = { acceptedAt: at("2026-11-01T00:00:00Z") };
    expect(clinicPatientStatus(row({ ...accepted, connectionStatus: "active" }), NOW)).toBe("connected");
    expect(clinicPatientStatus(row({ ...accepted, connectionStatus: "needs_reconnect" }), NOW)).toBe(
      "reconnect_needed",
    );
    expect(clinicPatientStatus(row({ ...accepted, connectionStatus: null }), NOW)).toBe("not_connected");
  });

  it("a withdrawal wins over everything else, even a new link", () => {
    const withdrawn = row({
      acceptedAt: at("2026-11-01T00:00:00Z"),
      withdrawnAt: at("2026-11-02T00:00:00Z"),
      inviteExpiresAt: at("2026-11-30T00:00:00Z"),
      connectionStatus: "active",
    });
    expect(clinicPatientStatus(withdrawn, NOW)).toBe("withdrawn");
  });

  it("only a sharing patient's data can be read", () => {
    expect(canReadData("connected")).toBe(true);
    for (const s of [
      "invited",
      "invitation_expired",
      "reconnect_needed",
      "not_connected",
      "withdrawn",
    ] as const) {
      expect(canReadData(s)).toBe(false);
    }
  });
});

describe("syncFailureOf", () => {
  const at = (iso: string) => new Date(iso);
  const state = {
    lastSuccessAt: at("2026-11-20T10:00:00Z"),
    lastErrorAt: at("2026-11-20T11:00:00Z"),
    lastError: "service_unavailable (503): the service did not answer",
    attempts: 3,
    nextAttemptAt: at("2026-11-20T11:20:00Z"),
  };

  it("is the last error while no success came after it", () => {
    expect(syncFailureOf(state)).toEqual({
      at: at("2026-11-20T11:00:00Z"),
      attempts: 3,
      retryAt: at("2026-11-20T11:20:00Z"),
      detail: "service_unavailable (503): the service did not answer",
    });
    expect(syncFailureOf({ ...state, lastSuccessAt: null })).toMatchObject({ attempts: 3 });
  });

  it("is null after a newer success, or with no error at all (the sync keeps the old error)", () => {
    expect(syncFailureOf({ ...state, lastSuccessAt: at("2026-11-20T11:05:00Z") })).toBeNull();
    expect(syncFailureOf({ ...state, lastErrorAt: null, lastError: null })).toBeNull();
  });
});
