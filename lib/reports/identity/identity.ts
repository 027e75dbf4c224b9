import type { CgmDevice } from "@/lib/cgm/app-records";
import { formatDateTime } from "@/lib/cgm/datetime";
import { generationLabel, newestUploadFirst } from "@/lib/records/devices";
import { wordsOfKind } from "@/lib/records/viewer";
import type { ReportPeriod } from "../period/period";
import type { DaysClock } from "../period/period-days";
import { reportFileName } from "./file-name";

/**
 * Whose report a page, print or PDF is, and of what: the lines a report carries at its top so that
 * it can be filed in a record and read without the screen it came from. The words are decided
 * here, once, for the page, the print, the PDF and the export's methods.txt alike.
 */

export interface IdentityLine {
  /** A stable key for tests and styling: "patient", "birthDate", "clinic", … */
  key: "patient" | "birthDate" | "clinic" | "period" | "generated" | "device" | "targetGroup";
  label: string;
  value: string;
}

export interface ReportIdentityInput {
  /** The clinic's view of a patient, or the patient's own report. */
  viewer: "clinic" | "patient";
  /** The clinic's name for the patient, or the account's name; null: none known. */
  patientName: string | null;
  /** yyyy-mm-dd as the clinic entered it (clinic view only). */
  birthDate?: string | null;
  /** The clinic's name (clinic view only). */
  clinicName?: string | null;
  /**
   * The period's first and last day, its length, and the clock its days are on: the patient's
   * receiver clock (absent: that one), or UTC for a window asked as startDate/endDate (period-days.ts).
   */
  period: {
    firstDay: string | null;
    lastDay: string | null;
    days: number;
    clock?: DaysClock;
    /** A comparison's earlier period, on the same clock. */
    earlier?: { firstDay: string | null; lastDay: string | null; days: number };
  };
  generatedAtMs: number;
  /** The devices that uploaded in the period, as the devices resource gave them; null: not read. */
  devices: readonly CgmDevice[] | null;
  /** The consensus target group whose goals judge the report (its label). */
  targetGroup: string;
}

/** The UTC clock of a window asked as startDate/endDate, in the words of a period line. */
const UTC_CLOCK = "UTC (the service's systemTime, as startDate and endDate were asked)";

/**
 * The clock a period's days are on, worded for the reader: the receiver's clock in the words the
 * views use (lib/records/viewer.ts), or UTC.
 */
export const periodClock = (viewer: ReportIdentityInput["viewer"], clock: DaysClock = "receiver") =>
  clock === "utc" ? UTC_CLOCK : wordsOfKind(viewer).clock;

/**
 * The generation time in UTC. The report is drawn on the server (and printed there for the PDF),
 * which does not know the reader's zone, so the one zone every reader can convert from is named.
 */
export function generatedText(ms: number): string {
  // formatDateTime gives yyyy-mm-ddThh:mm:ss on the naive axis, which for an instant is UTC.
  return `${formatDateTime(Math.floor(ms / 1000) * 1000)
    .slice(0, 16)
    .replace("T", " ")} UTC (made on the server, which does not know the reader's zone)`;
}

function periodText(input: ReportIdentityInput): string {
  const { firstDay, lastDay, days } = input.period;
  const clock = periodClock(input.viewer, input.period.clock);
  const length = `${days} ${days === 1 ? "day" : "days"}`;
  const earlier = input.period.earlier;
  const compared = earlier ? `; compared with ${spanText(earlier)}` : "";
  if (!firstDay || !lastDay) return `${length} on ${clock}, no readings in it${compared}`;
  return `${spanText(input.period)} on ${clock}${compared}`;
}

/** "2026-11-13 to 2026-11-26, 14 days" (one day: its date alone). */
function spanText({
  firstDay,
  lastDay,
  days,
}: {
  firstDay: string | null;
  lastDay: string | null;
  days: number;
}) {
  const length = `${days} ${days === 1 ? "day" : "days"}`;
  if (!firstDay || !lastDay) return length;
  return `${firstDay === lastDay ? firstDay : `${firstDay} to ${lastDay}`}, ${length}`;
}

const PLATFORMS: Record<string, string> = { ios: "iOS", android: "Android" };

/**
 * One device in words: "Dexcom G7 15-day sensor, read by the Dexcom G7 app on iOS", "Dexcom G6
 * sensor, read by a Dexcom receiver". The variant (v3) names the sensor more exactly than the
 * generation; the display app and device say what read it.
 */
export function deviceText(device: CgmDevice): string {
  const sensorName =
    generationLabel(device.transmitterGenerationVariant ?? null) ??
    generationLabel(device.transmitterGeneration);
  const sensor = sensorName
    ? `${sensorName.startsWith("Dexcom") ? "" : "Dexcom "}${sensorName} sensor`
    : "Sensor of an unnamed generation";
  const display = device.displayDevice?.trim().toLowerCase() ?? "";
  const app = device.displayApp?.trim() ?? "";
  if (display === "receiver" || app.toLowerCase() === "receiver")
    return `${sensor}, read by a Dexcom receiver`;
  const platform = PLATFORMS[display];
  if (!app && !platform) return sensor;
  const appName = app ? `the Dexcom ${app} app` : "the Dexcom app";
  return `${sensor}, read by ${appName}${platform ? ` on ${platform}` : ""}`;
}

function devicesText(devices: ReportIdentityInput["devices"]): string {
  if (devices === null) return "Not known: the service's device records could not be read just now";
  if (devices.length === 0) return "None uploaded in this period";
  // The newest upload is the device in use; others of the period follow, each named once.
  const texts = [...new Set(newestUploadFirst(devices).map(deviceText))];
  const [inUse, ...others] = texts;
  return others.length === 0 ? `${inUse}` : `${inUse}; also in this period: ${others.join("; ")}`;
}

/** The identity lines, in the order a report prints them. */
export function reportIdentityLines(input: ReportIdentityInput): IdentityLine[] {
  const lines: IdentityLine[] = [];
  if (input.viewer === "clinic") {
    lines.push({ key: "patient", label: "Patient", value: input.patientName?.trim() || "Unnamed patient" });
    lines.push({ key: "birthDate", label: "Date of birth", value: input.birthDate || "Not recorded" });
    lines.push({ key: "clinic", label: "Clinic", value: input.clinicName?.trim() || "Unnamed clinic" });
  } else {
    lines.push({
      key: "patient",
      label: "Account",
      value: input.patientName?.trim() || "This account has no name",
    });
  }
  lines.push({ key: "period", label: "Period", value: periodText(input) });
  // The group beside the period, then when and with what: on paper they flow into two or three lines.
  lines.push({ key: "targetGroup", label: "Target group", value: `${input.targetGroup} (consensus goals)` });
  lines.push({ key: "generated", label: "Generated", value: generatedText(input.generatedAtMs) });
  lines.push({ key: "device", label: "Sensor and device", value: devicesText(input.devices) });
  return lines;
}

/** The lines as text, one "Label: value" a line, for files (methods.txt). */
export const identityText = (lines: readonly IdentityLine[]) =>
  lines.map((l) => `${l.label}: ${l.value}`).join("\n");

/**
 * The period a report names: the receiver-clock days it was asked as ("the last 14 days", days
 * picked), else the days of its readings (a window given on systemTime has no days of its own).
 */
export function identityPeriod(
  period: ReportPeriod & { days: number; firstDay: string | null; lastDay: string | null },
): ReportIdentityInput["period"] {
  return {
    firstDay: period.patientDays?.firstDay ?? period.firstDay,
    lastDay: period.patientDays?.lastDay ?? period.lastDay,
    days: period.days,
    // The AGP's days without patientDays are its readings' own (reportDays): the receiver's.
    clock: "receiver",
  };
}

export interface ReportIdentity {
  lines: IdentityLine[];
  /** The name a download of this report is saved under. */
  fileName: string;
}

/** The AGP report's identity block and the PDF's file name, from one input so they agree. */
export function agpIdentity(input: ReportIdentityInput): ReportIdentity {
  return {
    lines: reportIdentityLines(input),
    fileName: reportFileName({
      kind: "agp",
      patientName: input.patientName,
      firstDay: input.period.firstDay,
      lastDay: input.period.lastDay,
    }),
  };
}
