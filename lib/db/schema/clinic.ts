import {
  boolean,
  doublePrecision,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
// Types only (erased): drizzle-kit loads this file without the app's path aliases.
import type { TargetGroup } from "../../metrics/targets";
import { users } from "./auth";
import { cgmConnections } from "./client";

/**
 * Clinics and the clinicians who work in them. A clinician is a dashboard user (users) with an
 * email and a password (clinician_credentials) and one or more memberships; patients have none.
 */
export const clinics = pgTable("clinics", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** The embedded default's demo clinic (npm run demo:clinic): labelled as such wherever shown. */
  demo: boolean("demo").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type ClinicRole = "admin" | "clinician";

export const clinicMembers = pgTable(
  "clinic_members",
  {
    clinicId: text("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<ClinicRole>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clinicId, t.userId] }), index("clinic_members_user_idx").on(t.userId)],
);

/**
 * How a clinician signs in: the normalized email (trimmed, lower case; unique) and the scrypt hash
 * of the password, a self-describing string with its parameters (lib/clinic/security/password.ts).
 */
export const clinicianCredentials = pgTable("clinician_credentials", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An administrator's invitation of a clinician into their clinic. The link's token is stored as
 * its SHA-256 only (the link is shown once, when it is made); single use (accepted_at) and valid
 * for 7 days.
 */
export const clinicInvitations = pgTable(
  "clinic_invitations",
  {
    id: text("id").primaryKey(),
    clinicId: text("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    role: text("role").$type<ClinicRole>().notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("clinic_invitations_clinic_idx").on(t.clinicId)],
);

/**
 * Failed clinician sign-ins, one row per failure and per key (the SHA-256 of "email:<address>" or
 * "ip:<address>", so the table holds neither): the database is the one place every app process
 * sees, so the limit holds across processes. Rows older than the window are deleted as new ones come.
 */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: text("id").primaryKey(),
    keyHash: text("key_hash").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sign_in_failures_key_at_idx").on(t.keyHash, t.at)],
);

/**
 * A clinic's patient: added by a clinician (name, optional date of birth) and linked to the
 * patient's own connection when the patient accepts the invitation (lib/clinic/domain/patients.ts). The
 * clinic reads the data through that connection, so there is one set of tokens per patient, one
 * refresh, one sync. The invitation's token is stored as its SHA-256 only; a new link replaces it.
 * Withdrawal by the patient unlinks the connection and keeps the row, so the clinic sees why;
 * removal by a clinician deletes the row.
 */
export const clinicPatients = pgTable(
  "clinic_patients",
  {
    id: text("id").primaryKey(),
    clinicId: text("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** yyyy-mm-dd, as entered; only to tell patients of the same name apart. */
    birthDate: text("birth_date"),
    /** The patient's dashboard account, once the invitation is accepted. */
    patientUserId: text("patient_user_id").references(() => users.id, { onDelete: "set null" }),
    connectionId: text("connection_id").references(() => cgmConnections.id, { onDelete: "set null" }),
    inviteTokenHash: text("invite_token_hash").unique(),
    inviteExpiresAt: timestamp("invite_expires_at", { withTimezone: true }),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The consensus group whose goals the clinic judges the patient by (null: the patient's own
     * choice, else the standard goals), and when it was set: the patient is shown the latest.
     */
    targetGroup: text("target_group").$type<TargetGroup>(),
    targetGroupSetAt: timestamp("target_group_set_at", { withTimezone: true }),
  },
  (t) => [
    index("clinic_patients_clinic_idx").on(t.clinicId),
    index("clinic_patients_user_idx").on(t.patientUserId),
    index("clinic_patients_connection_idx").on(t.connectionId),
  ],
);

/**
 * Each clinic's triage thresholds (the population view's flags), in percent or percentage points.
 * No row: the consensus defaults (lib/clinic/domain/triage.ts).
 */
export const clinicTriageSettings = pgTable("clinic_triage_settings", {
  clinicId: text("clinic_id")
    .primaryKey()
    .references(() => clinics.id, { onDelete: "cascade" }),
  veryLowPercent: doublePrecision("very_low_percent").notNull(),
  lowPercent: doublePrecision("low_percent").notNull(),
  veryHighPercent: doublePrecision("very_high_percent").notNull(),
  highPercent: doublePrecision("high_percent").notNull(),
  inRangeBelowPercent: doublePrecision("in_range_below_percent").notNull(),
  inRangeDropPoints: doublePrecision("in_range_drop_points").notNull(),
  sensorBelowPercent: doublePrecision("sensor_below_percent").notNull(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type AuditAction =
  | "patient.added"
  | "patient.removed"
  | "patient.invitation_renewed"
  | "patient.accepted"
  | "patient.withdrew"
  | "patient.synced"
  | "patient.target_group_set"
  | "view.population"
  | "view.dashboard"
  | "view.agp"
  | "view.day"
  | "view.events"
  | "view.alerts"
  | "view.calibrations"
  | "view.devices"
  | "view.compare"
  | "view.statistics"
  | "view.export"
  | "view.summary"
  | "download.agp_pdf"
  | "download.export"
  | "note.created"
  | "note.edited"
  | "note.deleted"
  | "view.notes"
  | "patient.reviewed"
  | "patient.tags_set"
  | "tag.created"
  | "tag.renamed"
  | "tag.deleted"
  | "download.fhir"
  | "clinic_day.created"
  | "clinic_day.downloaded";

/**
 * Who did what with which patient's data, and when: views, downloads and changes of access. Rows
 * are only ever inserted. Actor and patient are copied as names as well as ids, and the ids carry no
 * foreign keys, so the record outlives a removed patient or a deleted account. An entry about all
 * the clinic's patients at once (the population view) has no patient.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    clinicId: text("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    actorUserId: text("actor_user_id"),
    actorName: text("actor_name"),
    clinicPatientId: text("clinic_patient_id"),
    patientName: text("patient_name"),
    action: text("action").$type<AuditAction>().notNull(),
    /** What exactly, in words: the period of a report, the format of a download. */
    detail: text("detail"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_events_clinic_at_idx").on(t.clinicId, t.at)],
);

export type NoteAuthorKind = "clinician" | "patient";

/**
 * Notes on a patient's data, optionally on a time range of the trace (start_at/end_at, instants;
 * `clock_offset_minutes` is the patient's receiver clock offset the range was entered on, so it is
 * shown on the same clock). Two kinds, told apart by `author_kind`:
 * - a clinician's note belongs to one clinic patient (clinic_id, clinic_patient_id); it is seen by
 *   that clinic's members only, and by the patient once `shared`;
 * - a patient's own note belongs to their account (patient_user_id, no clinic); it is seen by the
 *   patient and by each clinic the patient shares their data with at the time of reading.
 * Edited and deleted by its author only (author_user_id).
 */
export const patientNotes = pgTable(
  "patient_notes",
  {
    id: text("id").primaryKey(),
    authorKind: text("author_kind").$type<NoteAuthorKind>().notNull(),
    authorUserId: text("author_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clinicId: text("clinic_id").references(() => clinics.id, { onDelete: "cascade" }),
    clinicPatientId: text("clinic_patient_id").references(() => clinicPatients.id, { onDelete: "cascade" }),
    patientUserId: text("patient_user_id").references(() => users.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    startAt: timestamp("start_at", { withTimezone: true }),
    endAt: timestamp("end_at", { withTimezone: true }),
    clockOffsetMinutes: integer("clock_offset_minutes"),
    shared: boolean("shared").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("patient_notes_clinic_patient_idx").on(t.clinicPatientId, t.createdAt),
    index("patient_notes_patient_user_idx").on(t.patientUserId, t.createdAt),
  ],
);

/**
 * "Mark reviewed": a clinician of the clinic looked at the patient's data over a period (yyyy-mm-dd,
 * the patient's calendar). Rows are only added; the population view shows the latest.
 */
export const clinicPatientReviews = pgTable(
  "clinic_patient_reviews",
  {
    id: text("id").primaryKey(),
    clinicId: text("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    clinicPatientId: text("clinic_patient_id")
      .notNull()
      .references(() => clinicPatients.id, { onDelete: "cascade" }),
    reviewerUserId: text("reviewer_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Copied, so the population still says who after the account is deleted. */
    reviewerName: text("reviewer_name"),
    periodStart: text("period_start").notNull(),
    periodEnd: text("period_end").notNull(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("clinic_patient_reviews_patient_idx").on(t.clinicPatientId, t.reviewedAt)],
);

/** A clinic's own tags for its patients ("pump", "pregnancy clinic"): names unique in the clinic. */
export const clinicTags = pgTable(
  "clinic_tags",
  {
    id: text("id").primaryKey(),
    clinicId: text("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("clinic_tags_clinic_name_uq").on(t.clinicId, t.name),
    unique("clinic_tags_clinic_id_uq").on(t.clinicId, t.id),
  ],
);

/**
 * A tag on a patient. The tag is referenced with its clinic, (clinic_id, tag_id), and clinic_id is
 * the patient's clinic (set from the patient's row), so the database itself refuses a tag of
 * another clinic on a patient.
 */
export const clinicPatientTags = pgTable(
  "clinic_patient_tags",
  {
    clinicId: text("clinic_id").notNull(),
    tagId: text("tag_id").notNull(),
    clinicPatientId: text("clinic_patient_id")
      .notNull()
      .references(() => clinicPatients.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.clinicPatientId, t.tagId] }),
    foreignKey({
      columns: [t.clinicId, t.tagId],
      foreignColumns: [clinicTags.clinicId, clinicTags.id],
    }).onDelete("cascade"),
    index("clinic_patient_tags_tag_idx").on(t.tagId),
  ],
);
