import "server-only";
import { offsetMinutesOf } from "@/lib/cgm/clock-offset";
import { toReadings } from "@/lib/cgm/reading";
import { windowOf } from "@/lib/cgm/window";
import { readableWindow } from "@/lib/cgm/window-bounds";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { type ReadSource, readEgvs } from "@/lib/sync/source";
import {
  type ClockSample,
  clockProbeWindow,
  lastPatientDays,
  newestRecord,
  offsetAt,
  onReceiverClock,
  type PatientDays,
  patientDaysWindow,
  utcNow,
  wallBounds,
} from "./patient-days";
import { type PeriodRequest, periodOf, REPORT_MAX_DAYS, type ReportPeriod } from "./period";

/**
 * Report periods on the receiver's clock: the service's newest record (from its dataRange) gives
 * the data's end and a first guess of the clock offset; a few readings around each end of a run
 * of days (a 4-hour read, usually from the synced copy) give the offset in force there, so a day
 * picked across a daylight-saving change or a trip still starts at its own midnight.
 */

/**
 * Resolves runs of days to periods for one connection, reading each boundary's clock once; with
 * the load's `source`, from the finished days this process holds where it holds them.
 */
export function patientClock(connection: ConnectionRef, newest: ClockSample | null, source?: ReadSource) {
  const guess = newest ? offsetMinutesOf(newest.t, newest.displayMs) * 60_000 : 0;
  const known = new Map<number, Promise<number>>();

  async function samplesAround(wallMs: number, offsetMs: number): Promise<ClockSample[]> {
    const w = clockProbeWindow(wallMs, offsetMs);
    const { startMs, endMs } = readableWindow(w.startMs, w.endMs);
    if (endMs <= startMs) return [];
    const { unit, egvs } = await readEgvs(connection, windowOf(startMs, endMs), source);
    return toReadings(egvs, unit);
  }

  /** The offset at a wall-clock boundary: read around the guess, and once more if the clock there differs. */
  async function probe(wallMs: number): Promise<number> {
    // Past the newest record nothing is known but the newest record's own clock.
    if (newest && wallMs - guess > newest.t) return guess;
    let offset = guess;
    for (let i = 0; i < 2; i++) {
      const found = offsetAt(await samplesAround(wallMs, offset), wallMs, offset);
      if (found === offset) break;
      offset = found;
    }
    return offset;
  }

  function offsetAtWall(wallMs: number): Promise<number> {
    let offset = known.get(wallMs);
    if (!offset) {
      offset = probe(wallMs);
      known.set(wallMs, offset);
    }
    return offset;
  }

  return {
    newest,
    /** A systemTime instant on the receiver's clock, by the readings around it (else the newest's clock). */
    async receiverTime(t: number): Promise<number> {
      return onReceiverClock(t, await samplesAround(t, 0), guess);
    },
    /** The systemTime period of `days`, never past the newest record. */
    async period(days: PatientDays): Promise<ReportPeriod> {
      const wall = wallBounds(days);
      const [startMs, endMs] = await Promise.all([offsetAtWall(wall.startMs), offsetAtWall(wall.endMs)]);
      const w = patientDaysWindow(days, { startMs, endMs }, newest?.t ?? null, REPORT_MAX_DAYS);
      // The last days of 2099 on a receiver behind UTC would end in 2100, which no request reads.
      const window = readableWindow(w.startMs, w.endMs);
      return { ...periodOf(window.startMs, window.endMs), patientDays: days };
    },
    /** The days a request means; null for "the last N days" of an account without data. */
    days(request: PeriodRequest): PatientDays | null {
      if (request.kind === "patientDays") return request.patientDays;
      if (request.kind === "days") return newest ? lastPatientDays(newest, request.days) : null;
      return null;
    },
  };
}

export type PatientClock = ReturnType<typeof patientClock>;

/** The period a request means (explicit dates stay as given, on systemTime); null when there is no data to count days back from. */
export async function resolveReportPeriod(
  clock: PatientClock,
  request: PeriodRequest,
): Promise<ReportPeriod | null> {
  if (request.kind === "dates") return request.period;
  const days = clock.days(request);
  return days && clock.period(days);
}

/**
 * "The last `n` days" up to the newest reading, for views that need a period even without one
 * (the devices of an account, which may have uploaded before its first reading): then UTC days up
 * to now (utcNow). With the clock, to read other times on.
 */
export async function lastDaysOfReadings(
  connection: ConnectionRef,
  source: ReadSource,
  n: number,
  nowMs: number,
): Promise<{ clock: PatientClock; period: ReportPeriod }> {
  const newest = newestRecord(source.newest) ?? utcNow(nowMs);
  const clock = patientClock(connection, newest, source);
  return { clock, period: await clock.period(lastPatientDays(newest, n)) };
}
