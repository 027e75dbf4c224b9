import "server-only";
import { eq } from "drizzle-orm";
import type { CgmDevice } from "@/lib/cgm/app-records";
import { MS_PER_DAY } from "@/lib/cgm/datetime";
import { type Window, windowOf } from "@/lib/cgm/window";
import { db, schema } from "@/lib/db";
import { deviceLookupWindow } from "@/lib/records/devices";
import { configuredVersion, getDevices } from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import type { AgpReport } from "../agp/agp-model";
import type { ReportPeriod } from "../period/period";
import {
  agpIdentity,
  type IdentityLine,
  identityPeriod,
  type ReportIdentity,
  reportIdentityLines,
} from "./identity";

/** The name of a patient's own account (the service names it at sign-in under v3); null: none. */
export async function accountName(userId: string): Promise<string | null> {
  const database = await db();
  const [row] = await database
    .select({ name: schema.users.name })
    .from(schema.users)
    .where(eq(schema.users.id, userId));
  return row?.name?.trim() || null;
}

/**
 * The devices that uploaded in the report's period (spec 2.4): one call to the devices resource,
 * with the configured API version, over the period's last 30 days at most (deviceLookupWindow):
 * the device in use at the period's end uploaded in them, and v3 answers such a window in one
 * call, however long the period. Its errors are the service's (the FHIR export's Device needs them).
 */
export async function readPeriodDevices(connection: ConnectionRef, period: Window): Promise<CgmDevice[]> {
  const { startMs, endMs } = deviceLookupWindow(period);
  return (await getDevices(connection, configuredVersion(), windowOf(startMs, endMs))).devices;
}

/**
 * readPeriodDevices for the report's "sensor and device" line: the line is a side note of the
 * report, so a failed read (service down, budget spent) leaves it "not known" (null) rather than
 * failing the report.
 */
export async function periodDevices(connection: ConnectionRef, period: Window): Promise<CgmDevice[] | null> {
  try {
    return await readPeriodDevices(connection, period);
  } catch {
    return null;
  }
}

/** Whose report: the patient's own (their account's name is read), or a clinic's view of a patient. */
export type ReportViewer =
  | { viewer: "patient"; userId: string }
  | { viewer: "clinic"; patientName: string; birthDate: string | null; clinicName: string };

/** The AGP report's identity block and file name: the account's name and the period's devices read. */
export async function loadAgpIdentity(
  connection: ConnectionRef,
  report: Pick<AgpReport, "period" | "preset">,
  who: ReportViewer,
  nowMs = Date.now(),
): Promise<ReportIdentity> {
  const [devices, patientName] = await Promise.all([
    periodDevices(connection, report.period),
    who.viewer === "patient" ? accountName(who.userId) : who.patientName,
  ]);
  return agpIdentity({
    viewer: who.viewer,
    patientName,
    birthDate: who.viewer === "clinic" ? who.birthDate : null,
    clinicName: who.viewer === "clinic" ? who.clinicName : null,
    period: identityPeriod(report.period),
    generatedAtMs: nowMs,
    devices,
    targetGroup: report.preset.label,
  });
}

/** A clinic's patient as the clinic recorded them, with the clinic's name; null: no such patient. */
export async function clinicPatientIdentity(
  clinicPatientId: string,
): Promise<Extract<ReportViewer, { viewer: "clinic" }> | null> {
  const database = await db();
  const [row] = await database
    .select({
      patientName: schema.clinicPatients.name,
      birthDate: schema.clinicPatients.birthDate,
      clinicName: schema.clinics.name,
    })
    .from(schema.clinicPatients)
    .innerJoin(schema.clinics, eq(schema.clinics.id, schema.clinicPatients.clinicId))
    .where(eq(schema.clinicPatients.id, clinicPatientId));
  return row ? { viewer: "clinic", ...row } : null;
}

/** The export's identity lines (methods.txt) and its patient's name for the zip's file name. */
export async function loadExportIdentity(
  connection: ConnectionRef,
  period: ReportPeriod,
  who: ReportViewer,
  targetGroup: string,
  nowMs = Date.now(),
): Promise<{ lines: IdentityLine[]; patientName: string | null }> {
  const [devices, patientName] = await Promise.all([
    periodDevices(connection, period),
    who.viewer === "patient" ? accountName(who.userId) : who.patientName,
  ]);
  const lines = reportIdentityLines({
    viewer: who.viewer,
    patientName,
    birthDate: who.viewer === "clinic" ? who.birthDate : null,
    clinicName: who.viewer === "clinic" ? who.clinicName : null,
    period: {
      firstDay: period.patientDays?.firstDay ?? period.startDate.slice(0, 10),
      lastDay: period.patientDays?.lastDay ?? period.endDate.slice(0, 10),
      days: Math.round((period.endMs - period.startMs) / MS_PER_DAY),
    },
    generatedAtMs: nowMs,
    devices,
    targetGroup,
  });
  return { lines, patientName };
}
