import { describe, expect, it } from "vitest";
import { formatDateTime, parseDateTime } from "@/lib/cgm";
import { copyAnswers, type SyncedCopy, splitAtSynced } from "./freshness";

const MIN = 60_000;
const DAY = 86_400_000;
const NOW = parseDateTime("2026-11-20T12:00:00") as number;
const END = NOW - 3 * MIN;
const FIRST = NOW - 400 * DAY;
const bounds = (startMs: number, endMs: number) => ({
  start: { systemTime: formatDateTime(startMs), displayTime: formatDateTime(startMs) },
  end: { systemTime: formatDateTime(endMs), displayTime: formatDateTime(endMs) },
});

const copy = (over: Partial<SyncedCopy> = {}): SyncedCopy => ({
  active: true,
  backfillDone: true,
  lastSuccessMs: NOW - 4 * MIN,
  lastErrorMs: null,
  range: { egvs: bounds(FIRST, END), events: bounds(FIRST, END - DAY), calibrations: null },
  through: { egvs: END, events: END - DAY, calibrations: null },
  from: { egvs: END - 90 * DAY, events: END - 91 * DAY, calibrations: null },
  ...over,
});
const last14 = { startMs: END - 14 * DAY, endMs: NOW };
const answers = (c: SyncedCopy, window: { startMs: number; endMs: number } | null = last14) =>
  copyAnswers(c, ["egvs", "events", "calibrations"], window, NOW, 5);

describe("copyAnswers", () => {
  it("answers a recent window of a fresh, complete copy, even past its newest record", () => {
    expect(answers(copy())).toEqual({ answers: true });
    expect(answers(copy(), null)).toEqual({ answers: true });
  });

  it("at most two sync intervals old, by the database's clock", () => {
    expect(answers(copy({ lastSuccessMs: NOW - 10 * MIN })).answers).toBe(true);
    expect(answers(copy({ lastSuccessMs: NOW - 10 * MIN - 1 }))).toEqual({
      answers: false,
      reason: "the last sync is older than two sync intervals",
    });
  });

  it("not for a connection to reconnect, before the backfill, or after a failed sync", () => {
    expect(answers(copy({ active: false })).answers).toBe(false);
    expect(answers(copy({ backfillDone: false })).answers).toBe(false);
    expect(answers(copy({ range: null })).answers).toBe(false);
    expect(answers(copy({ lastSuccessMs: null })).answers).toBe(false);
    expect(answers(copy({ lastErrorMs: NOW - 3 * MIN })).answers).toBe(false);
    expect(answers(copy({ lastErrorMs: NOW - 5 * MIN })).answers).toBe(true);
  });

  it("only from where a group's records run without a hole, unless that is its first record", () => {
    const old = { startMs: END - 95 * DAY, endMs: END - 80 * DAY };
    expect(answers(copy(), old)).toEqual({
      answers: false,
      reason: `egvs are synced only from ${new Date(END - 90 * DAY).toISOString()}`,
    });
    const whole = copy({ from: { egvs: FIRST, events: FIRST, calibrations: null } });
    expect(answers(whole, old).answers).toBe(true);
    // Only the groups read count: old events do not matter to an EGV read that is covered.
    expect(copyAnswers(copy(), ["events"], { startMs: END - 91 * DAY, endMs: NOW }, NOW, 5).answers).toBe(
      true,
    );
  });

  it("not when a group was not synced up to the dataRange end the sync saw", () => {
    expect(
      answers(copy({ through: { egvs: END - 5 * MIN, events: END - DAY, calibrations: null } })).answers,
    ).toBe(false);
    expect(answers(copy({ from: { egvs: null, events: END, calibrations: null } })).answers).toBe(false);
  });
});

describe("splitAtSynced", () => {
  const SEC = 1000;
  const window = { startMs: END - 14 * DAY, endMs: END + 10 * MIN + SEC };

  it("the copy alone while it holds the service's newest record, or the window ends within it", () => {
    expect(splitAtSynced(window, END + 10 * MIN, END + 10 * MIN)).toEqual({ copy: window, service: null });
    expect(splitAtSynced(window, END, null)).toEqual({ copy: window, service: null });
    const older = { startMs: END - DAY, endMs: END };
    expect(splitAtSynced(older, END, END + 10 * MIN)).toEqual({ copy: older, service: null });
  });

  it("readings released since the sync: the copy up to its newest, the service from the next second", () => {
    const parts = splitAtSynced(window, END, END + 10 * MIN);
    expect(parts).toEqual({
      copy: { startMs: window.startMs, endMs: END },
      service: { startMs: END + SEC, endMs: window.endMs },
    });
    // Inclusive windows on whole seconds: every second of the window in exactly one part.
    expect((parts.service?.startMs ?? 0) - (parts.copy?.endMs ?? 0)).toBe(SEC);
  });

  it("the service alone for a window wholly newer than the copy, or a group never synced", () => {
    const newer = { startMs: END + MIN, endMs: END + 10 * MIN };
    expect(splitAtSynced(newer, END, END + 10 * MIN)).toEqual({ copy: null, service: newer });
    expect(splitAtSynced(window, null, END)).toEqual({ copy: null, service: window });
  });
});
