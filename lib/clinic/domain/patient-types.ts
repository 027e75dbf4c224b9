import type { ClinicRole } from "@/lib/db/schema/clinic";
import type { ClinicPatientStatus, SyncFailure } from "./patient-status";

/**
 * The shapes of a clinic's patients as patients.ts reads them, declared apart from that server
 * module so the components that show them can name them without importing a "server-only" file.
 */

export interface ClinicPatientRow {
  id: string;
  name: string;
  birthDate: string | null;
  status: ClinicPatientStatus;
  acceptedAt: Date | null;
  inviteExpiresAt: Date | null;
  createdAt: Date;
  connectionId: string | null;
  /** The background sync's last success for the patient's connection; null: never synced. */
  lastSyncAt: Date | null;
  /** The sync's latest failure when no success came after it: the clinic's copy is not current. */
  syncFailure: SyncFailure | null;
}

export interface ClinicPatientAccess {
  clinicId: string;
  clinicName: string;
  clinicDemo: boolean;
  role: ClinicRole;
  patient: ClinicPatientRow & { patientUserId: string | null };
}
