import { customType, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { clinicPatients, clinics } from "./clinic";

/** PostgreSQL's bytea as a Node Buffer (PGlite and node-postgres both answer a Uint8Array or Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (v) => Buffer.from(v),
});

/**
 * A clinic day (lib/clinic/clinic-day): the AGP PDFs of a chosen set of a clinic's patients for one
 * period, made in the background. The job belongs to one clinic; each patient is an item with its
 * own state and lease, and the PDF is stored in the item's row, so it is reached only through the
 * job's clinic (never a file a path could name). `selection` says how the patients were chosen, in
 * words, for the list.
 */
export const clinicDayJobs = pgTable(
  "clinic_day_jobs",
  {
    id: text("id").primaryKey(),
    clinicId: text("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    /** The clinician who asked: the PDFs are rendered with their access, checked again per item. */
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    selection: text("selection").notNull(),
    /** The AGP's period: its last this many days (lib/reports/period/period.ts REPORT_PERIOD_DAYS). */
    days: integer("days").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("clinic_day_jobs_clinic_idx").on(t.clinicId, t.createdAt)],
);

export type ClinicDayItemState = "pending" | "running" | "done" | "failed";

/**
 * One patient of a clinic day. `pending` waits for a runner; `running` is leased (`leasedBy`, a
 * runner registered in sync_workers, until `leaseUntil`); `done` holds the PDF; `failed` says why
 * and waits for a Retry. The patient's name and date of birth are copied, so the packet still names
 * a patient removed meanwhile.
 */
export const clinicDayItems = pgTable(
  "clinic_day_items",
  {
    id: text("id").primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => clinicDayJobs.id, { onDelete: "cascade" }),
    clinicId: text("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    clinicPatientId: text("clinic_patient_id").references(() => clinicPatients.id, { onDelete: "set null" }),
    patientName: text("patient_name").notNull(),
    birthDate: text("birth_date"),
    state: text("state").$type<ClinicDayItemState>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    leasedBy: text("leased_by"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** Why it failed, in words for the clinician. */
    error: text("error"),
    /** The report's period as the page stated it (data-period), for the file name. */
    period: text("period"),
    pdf: bytea("pdf"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("clinic_day_items_job_idx").on(t.jobId), index("clinic_day_items_state_idx").on(t.state)],
);
