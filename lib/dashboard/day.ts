import "server-only";
import { TARGET_PRESETS, type TargetPreset } from "@/lib/metrics/targets";
import type { Preferences } from "@/lib/preferences";
import { alertSoundings } from "@/lib/records/alerts";
import { PATIENT, type Viewer, wordsFor } from "@/lib/records/viewer";
import { configuredVersion, getAlerts } from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readCalibrations, readEgvs, readEvents, readSource } from "@/lib/sync/source";
import { buildDay, type DayView, dataBounds, dayFetchWindow, placeDay } from "./day-model";

export type { DayView } from "./day-model";

/**
 * The daily view's service calls. Without a date it shows the day of the newest EGV (dataRange),
 * not today: the real service releases readings hours late, so "today" may hold nothing yet.
 */
export async function loadDay(
  connection: ConnectionRef,
  preferences: Preferences,
  requested: string | null,
  // The patient's target group (lib/preferences/target-group.ts) judges the day.
  preset: TargetPreset = TARGET_PRESETS.standard,
  viewer: Viewer = PATIENT,
): Promise<DayView> {
  // The service's dataRange and the sync state, once: every read below goes by them.
  const source = await readSource(connection);
  const bounds = dataBounds(source.newest.egvs);
  if (!bounds) return { kind: "empty" };
  const day = requested ?? bounds.lastDay;
  const placement = placeDay(day, bounds);
  if (placement !== "within") return { kind: "outside", day, placement, bounds };
  const window = dayFetchWindow(day);
  const [egvs, events, calibrations, alerts] = await Promise.all([
    readEgvs(connection, window, source),
    readEvents(connection, window, source),
    readCalibrations(connection, window, source),
    // Alerts exist in API v3 only (service-v3-notes.md §3.5).
    configuredVersion() === "v3" ? getAlerts(connection, window) : null,
  ]);
  return {
    kind: "day",
    model: buildDay({
      day,
      preferences,
      bounds,
      egvs,
      events: events.events,
      calibrations: calibrations.calibrations,
      alerts: alerts ? alertSoundings(alerts.alerts) : undefined,
      preset,
      your: wordsFor(viewer).your,
    }),
  };
}
