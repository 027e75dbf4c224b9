/**
 * Where a clinic's patient stands, from their row and their connection: the one place the clinic's
 * pages, the population view and the access checks read it from, so they cannot disagree.
 * Pure, so the rules are tested without a database.
 */
export type ClinicPatientStatus =
  /** The invitation link is out and still valid. */
  | "invited"
  /** The link expired before the patient used it: a new one is needed. */
  | "invitation_expired"
  /** The patient shares their data and the service accepts the connection. */
  | "connected"
  /** The service refused the connection (revoked, or the refresh token died): the patient must reconnect. */
  | "reconnect_needed"
  /** The patient disconnected their CGM account from the dashboard: nothing to read until they reconnect. */
  | "not_connected"
  /** The patient withdrew the clinic's access. */
  | "withdrawn";

export interface PatientStatusInput {
  acceptedAt: Date | null;
  withdrawnAt: Date | null;
  inviteExpiresAt: Date | null;
  /** The status of the connection the row links to; null when it links to none. */
  connectionStatus: "active" | "needs_reconnect" | null;
}

export function clinicPatientStatus(row: PatientStatusInput, nowMs: number): ClinicPatientStatus {
  if (row.withdrawnAt) return "withdrawn";
  if (!row.acceptedAt) {
    return row.inviteExpiresAt && row.inviteExpiresAt.getTime() > nowMs ? "invited" : "invitation_expired";
  }
  if (row.connectionStatus === null) return "not_connected";
  return row.connectionStatus === "needs_reconnect" ? "reconnect_needed" : "connected";
}

/** Whether the clinic can read the patient's data now (the service may still refuse it later). */
export const canReadData = (status: ClinicPatientStatus) => status === "connected";

export const STATUS_LABEL: Record<ClinicPatientStatus, string> = {
  invited: "Invitation sent",
  invitation_expired: "Invitation expired",
  connected: "Sharing",
  reconnect_needed: "Reconnect needed",
  not_connected: "CGM account disconnected",
  withdrawn: "Access withdrawn",
};

/** What the clinic can do about each status, in words shown beside it. */
export const STATUS_HELP: Record<ClinicPatientStatus, string> = {
  invited: "Waiting for the patient to open the link and allow access.",
  invitation_expired: "The link was not used in time. Create a new link and send it again.",
  connected: "",
  reconnect_needed:
    "The glucose service no longer accepts the patient's authorization. Ask the patient to sign in to the dashboard and reconnect their CGM account.",
  not_connected:
    "The patient disconnected their CGM account from the dashboard. Sharing resumes when they connect it again.",
  withdrawn: "The patient withdrew the clinic's access. Create a new link if they want to share again.",
};

export interface SyncFailure {
  at: Date;
  /** Failed attempts in a row; the sync backs off longer after each. */
  attempts: number;
  /** When the background sync tries again (null: at its next pass). */
  retryAt: Date | null;
  /** What failed, as the sync recorded it (lib/sync/pass.ts, describeError). */
  detail: string;
}

/** A failure counts while no success is newer: the sync keeps the last error after recovering. */
export function syncFailureOf(state: {
  lastSuccessAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
  attempts: number | null;
  nextAttemptAt: Date | null;
}): SyncFailure | null {
  const { lastErrorAt, lastSuccessAt } = state;
  if (!lastErrorAt || (lastSuccessAt && lastSuccessAt > lastErrorAt)) return null;
  return {
    at: lastErrorAt,
    attempts: state.attempts ?? 0,
    retryAt: state.nextAttemptAt,
    detail: state.lastError ?? "",
  };
}
