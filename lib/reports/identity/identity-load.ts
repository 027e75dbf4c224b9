import "server-only";
import { eq } from "drizzle-orm";
import type { CgmDevice } from "@/lib/cgm/app-records";
import { MS_PER_DAY, parseDateTime } from "@/lib/cgm/datetime";
import { type Window, windowOf } from "@/lib/cgm/window";
import { readableWindow } from "@/lib/cgm/window-bounds";
import { db, schema } from "@/lib/db";
import { DEVICE_DAYS, deviceLookupWindow } from "@/lib/records/devices";
import { configuredVersion, getDevices } from "@/lib/service-client/client";
import { type ConnectionRef, connectionIdOf } from "@/lib/service-client/tokens";
import type { AgpReport } from "../agp/agp-model";
import type { ReportPeriod } from "../period/period";
import { namedPeriodDays } from "../period/period-days";
import {
  agpIdentity,
  type IdentityLine,
  identityPeriod,
  type ReportIdentity,
  type ReportIdentityInput,
  reportIdentityLines,
} from "./identity";
import type { ViewPeriod } from "./view-periods";

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
 * How long a connection's devices read for a report's identity lines is used again: the pages of
 * one visit (AGP, its PDF, compare, statistics, daily view) share the one read instead of each
 * making a call to the service. A device changes seldom (a new sensor every 10 to 15 days), and
 * the line names the period's devices, not the last minutes' uploads.
 */
export const DEVICES_REUSE_MS = 5 * 60_000;
const DEVICES_KEPT = 500;
const devicesRead = new Map<string, { atMs: number; devices: Promise<CgmDevice[] | null> }>();

/**
 * The devices that uploaded during the report's period (spec 2.4), for the report's "sensor and
 * device" line. The service is asked for the DEVICE_DAYS (30) days up to the period's end, as the
 * devices page asks (one window it answers in one call; the device in use at the period's end is
 * in it), and a device counts when its last upload is not before the period's start: so views of
 * different lengths ending together (the AGP, its PDF, compare, statistics of "the last 14 days")
 * share one read, made again for the connection only after DEVICES_REUSE_MS. A failed read
 * (service down, budget spent) leaves the line "not known" (null), is not kept, and never fails
 * the report: the line is a side note of it.
 */
export async function periodDevices(
  connection: ConnectionRef,
  period: Window,
  nowMs = Date.now(),
): Promise<CgmDevice[] | null> {
  const devices = await devicesUpTo(connection, period.endMs, nowMs);
  return devices?.filter((d) => (parseDateTime(d.lastUploadDate) ?? period.endMs) >= period.startMs) ?? null;
}

/** The devices of the 30 days up to `endMs`, read once per connection and end within DEVICES_REUSE_MS. */
function devicesUpTo(connection: ConnectionRef, endMs: number, nowMs: number): Promise<CgmDevice[] | null> {
  const bounds = readableWindow(endMs - DEVICE_DAYS * MS_PER_DAY, endMs);
  const window = windowOf(bounds.startMs, bounds.endMs);
  const version = configuredVersion();
  // Keyed by connection: one patient's devices are never another's.
  const key = `${connectionIdOf(connection)} ${version} ${window.endDate}`;
  const kept = devicesRead.get(key);
  if (kept && nowMs - kept.atMs < DEVICES_REUSE_MS) return kept.devices;
  const devices = getDevices(connection, version, window).then(
    (read) => read.devices,
    () => {
      devicesRead.delete(key);
      return null;
    },
  );
  if (devicesRead.size >= DEVICES_KEPT) devicesRead.delete(devicesRead.keys().next().value as string);
  devicesRead.set(key, { atMs: nowMs, devices });
  return devices;
}

/** Whose report: the patient's own (their account's name is read), or a clinic's view of a patient. */
export type ReportViewer =
  | { viewer: "patient"; userId: string }
  | { viewer: "clinic"; patientName: string; birthDate: string | null; clinicName: string };

/** A clinic's view of its patient, from the patient page's access (lib/clinic/views/patient-page.ts). */
export const clinicReportViewer = (access: {
  patient: { name: string; birthDate: string | null };
  clinicName: string;
}): ReportViewer => ({
  viewer: "clinic",
  patientName: access.patient.name,
  birthDate: access.patient.birthDate,
  clinicName: access.clinicName,
});

/**
 * The identity lines of any report or printable view: the account's name read (patient) or the
 * clinic's record (clinic), and the devices of `window` read (or reused: periodDevices).
 */
export async function loadIdentityLines(
  connection: ConnectionRef,
  who: ReportViewer,
  window: Window,
  period: ReportIdentityInput["period"],
  targetGroup: string,
  nowMs = Date.now(),
): Promise<{ input: ReportIdentityInput; lines: IdentityLine[] }> {
  const [devices, patientName] = await Promise.all([
    periodDevices(connection, window, nowMs),
    who.viewer === "patient" ? accountName(who.userId) : who.patientName,
  ]);
  const input: ReportIdentityInput = {
    viewer: who.viewer,
    patientName,
    birthDate: who.viewer === "clinic" ? who.birthDate : null,
    clinicName: who.viewer === "clinic" ? who.clinicName : null,
    period,
    generatedAtMs: nowMs,
    devices,
    targetGroup,
  };
  return { input, lines: reportIdentityLines(input) };
}

/** The AGP report's identity block and file name: the account's name and the period's devices read. */
export async function loadAgpIdentity(
  connection: ConnectionRef,
  report: Pick<AgpReport, "period" | "preset">,
  who: ReportViewer,
  nowMs = Date.now(),
): Promise<ReportIdentity> {
  const { input } = await loadIdentityLines(
    connection,
    who,
    report.period,
    identityPeriod(report.period),
    report.preset.label,
    nowMs,
  );
  return agpIdentity(input);
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
  const { input, lines } = await loadIdentityLines(
    connection,
    who,
    period,
    namedPeriodDays(period),
    targetGroup,
    nowMs,
  );
  return { lines, patientName: input.patientName };
}

/**
 * The identity lines of a printable view other than the AGP (compare, statistics by time of day,
 * daily view, overview), for the patient's pages and the clinic's alike, so that each page only
 * says whose view it is and of what period.
 */
export async function viewIdentityLines(options: {
  connection: ConnectionRef;
  who: ReportViewer;
  view: ViewPeriod;
  targetGroup: string;
}): Promise<IdentityLine[]> {
  const { connection, who, view, targetGroup } = options;
  return (await loadIdentityLines(connection, who, view.window, view.period, targetGroup)).lines;
}
