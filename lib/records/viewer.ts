/**
 * Who looks at a patient's pages: the patient, or a clinician of their clinic. The same views
 * (the overview, the daily view, the records, the reports) serve both; only their links, and the
 * words that address the reader, differ. Plain data, so server and client components share it.
 */

/** A view of a patient's data, as the clinic's address names it under the patient's page. */
export type PatientView =
  | ""
  | "/day"
  | "/events"
  | "/alerts"
  | "/calibrations"
  | "/devices"
  | "/agp"
  | "/compare"
  | "/statistics"
  | "/export";

export type Viewer = { kind: "patient" } | { kind: "clinic"; basePath: string; patientId: string };

export const PATIENT: Viewer = { kind: "patient" };

/** The patient's own addresses of the views; a clinic has them all under its patient's page. */
const OWN_PATHS: Record<PatientView, string> = {
  "": "/dashboard",
  "/day": "/dashboard/day",
  "/events": "/dashboard/events",
  "/alerts": "/dashboard/alerts",
  "/calibrations": "/dashboard/calibrations",
  "/devices": "/dashboard/devices",
  "/agp": "/reports",
  "/compare": "/reports/compare",
  "/statistics": "/reports/statistics",
  "/export": "/reports/export",
};

export const clinicViewer = (patientId: string): Viewer => ({
  kind: "clinic",
  basePath: `/clinic/patients/${encodeURIComponent(patientId)}`,
  patientId,
});

export const viewPath = (viewer: Viewer, view: PatientView): string =>
  viewer.kind === "clinic" ? `${viewer.basePath}${view}` : OWN_PATHS[view];

/** The export's download: the patient's own API, or the clinic's for its patient (audited there). */
export const exportApiPath = (viewer: Viewer): string =>
  viewer.kind === "clinic"
    ? `/api/clinic/patients/${encodeURIComponent(viewer.patientId)}/export`
    : "/api/reports/export";

/** The words that address the reader: the patient is "you", a clinician reads about "the patient". */
export interface ViewerWords {
  /** "your" / "the patient's", inside a sentence. */
  your: string;
  /** "Your" / "The patient's", at the start of one. */
  Your: string;
  /** The clock of days and times of day. */
  clock: string;
  /** The patient's account at the glucose service. */
  account: string;
}

const WORDS: Record<Viewer["kind"], ViewerWords> = {
  patient: {
    your: "your",
    Your: "Your",
    clock: "your receiver's clock",
    account: "your CGM account",
  },
  clinic: {
    your: "the patient's",
    Your: "The patient's",
    clock: "the patient's receiver clock",
    account: "the patient's CGM account",
  },
};

export const wordsFor = (viewer: Viewer = PATIENT): ViewerWords => WORDS[viewer.kind];

/** The words for a kind of reader, where only the kind is known (a report's identity lines). */
export const wordsOfKind = (kind: Viewer["kind"]): ViewerWords => WORDS[kind];
