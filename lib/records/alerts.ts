import type { CgmAlert, CgmAlertName } from "@/lib/cgm/app-records";
import { parseDateTime } from "@/lib/cgm/datetime";
import { ALERT_LABELS } from "./devices";

/**
 * API v3's alerts (service-v3-notes §3.5) as a patient reads them. The service sends one record per
 * change of an alert's state (activeAlarming when it sounds, activeSnoozed when the user
 * acknowledges it, inactive when its condition has cleared); a patient asks "which alert sounded,
 * when, and for how long". So a sounding is one activeAlarming record, and it lasts until the
 * same alert's next change of state: acknowledged (activeSnoozed) or cleared (inactive). A repeat
 * after a snooze is a sounding of its own, marked as a repeat. No schemas here: browser code (the
 * trace) may use it.
 */

export type AlertEnd = "acknowledged" | "cleared" | "open";

export interface AlertSounding {
  alertName: CgmAlertName;
  /** UTC, for ordering and placing on the trace (displayTime can run backwards). */
  t: number;
  systemTime: string;
  /** When it started sounding on the receiver's clock, as every glucose time. */
  displayTime: string;
  /** How it stopped: acknowledged, cleared, or still sounding when the records end ("open"). */
  end: AlertEnd;
  /** Seconds it sounded; null when it had not stopped by the last record read. */
  seconds: number | null;
  /** It sounded again after the user had snoozed it. */
  repeat: boolean;
  /** The user snoozed it (acknowledged while its condition still held). */
  snoozed: boolean;
}

// The settings' names (lib/records/devices.ts), with the words a sounding alert goes by.
const SOUNDED_LABELS: Record<CgmAlertName, string> = {
  ...ALERT_LABELS,
  // G4/G5's name for the 55 mg/dL alarm.
  fixedLow: "Urgent low",
  rise: "Rising fast",
  fall: "Falling fast",
};

/** The alert that sounded, in words: "Urgent low", "Rising fast", "Signal loss". */
export function soundedAlertLabel(name: CgmAlertName): string {
  return SOUNDED_LABELS[name];
}

/**
 * The soundings in the alert records, newest first. Records of an alert are taken in systemTime
 * order (the device's clock, which never runs backwards); a record without a readable systemTime is
 * left out, and an "unknown" state says nothing about sounding, so it is skipped. Consecutive
 * activeAlarming records of one alert (a record missed in between) are one sounding each, the first
 * ending where the next starts.
 */
export function alertSoundings(alerts: readonly CgmAlert[]): AlertSounding[] {
  const byName = new Map<CgmAlertName, { a: CgmAlert; t: number }[]>();
  for (const a of alerts) {
    const t = parseDateTime(a.systemTime);
    if (t === null || a.alertState === "unknown") continue;
    const list = byName.get(a.alertName) ?? [];
    list.push({ a, t });
    byName.set(a.alertName, list);
  }
  const out: AlertSounding[] = [];
  for (const [alertName, list] of byName) {
    list.sort((x, y) => x.t - y.t);
    list.forEach(({ a, t }, i) => {
      if (a.alertState !== "activeAlarming") return;
      const next = list[i + 1];
      const prev = list[i - 1];
      const end: AlertEnd =
        next === undefined ? "open" : next.a.alertState === "activeSnoozed" ? "acknowledged" : "cleared";
      out.push({
        alertName,
        t,
        systemTime: a.systemTime,
        displayTime: a.displayTime,
        end,
        seconds: next === undefined ? null : Math.round((next.t - t) / 1000),
        repeat: prev?.a.alertState === "activeSnoozed",
        snoozed: end === "acknowledged",
      });
    });
  }
  return out.sort((x, y) => y.t - x.t || x.alertName.localeCompare(y.alertName));
}

/** "40 s", "3 min 5 s", "1 h 2 min": how long an alert sounded. */
export function soundedForText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const s = seconds % 60;
  if (minutes < 60) return s === 0 ? `${minutes} min` : `${minutes} min ${s} s`;
  const m = minutes % 60;
  return m === 0 ? `${Math.floor(minutes / 60)} h` : `${Math.floor(minutes / 60)} h ${m} min`;
}

/** "Acknowledged after 2 min 5 s", "Cleared after 35 min", "Still sounding at the last record". */
export function soundingEndText(s: Pick<AlertSounding, "end" | "seconds">): string {
  if (s.end === "open" || s.seconds === null) return "No later record (still sounding)";
  return `${s.end === "acknowledged" ? "Acknowledged" : "Cleared"} after ${soundedForText(s.seconds)}`;
}

/** How many times each alert sounded, in the order of the labels (urgent first), for a summary. */
export function soundingCounts(soundings: readonly AlertSounding[]): { label: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const s of soundings) {
    const label = soundedAlertLabel(s.alertName);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const order = [...new Set(Object.values(SOUNDED_LABELS))];
  return order.filter((l) => counts.has(l)).map((label) => ({ label, count: counts.get(label) ?? 0 }));
}
