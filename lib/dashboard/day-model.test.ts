import { describe, expect, it } from "vitest";
import { type EgvV2, type EventV2, formatDateTime, MS_PER_MINUTE, type Window } from "@/lib/cgm";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { DEFAULT_PREFERENCES } from "@/lib/preferences";
import { offsetAt, wallClockLabel } from "@/lib/trace";
import {
  buildDay,
  clockChangeNote,
  type DataBounds,
  type DayInput,
  dataBounds,
  dayFetchWindow,
  dayHref,
  dayInWords,
  parseDayParam,
  placeDay,
  shiftDay,
} from "./day-model";

/** The service's text of a window: what a fetch of it sends (the instants are its own test's). */
const windowText = ({ startDate, endDate }: Window) => ({ startDate, endDate });

// US Eastern 2026: 02:00 EST → 03:00 EDT at 2026-03-08T07:00Z, 02:00 EDT → 01:00 EST at
// 2026-11-01T06:00Z (checked against the tz database by hand, as in lib/trace/clock.test.ts).
const SPRING_FORWARD = Date.UTC(2026, 2, 8, 7);
const FALL_BACK = Date.UTC(2026, 10, 1, 6);
const eastern = (ms: number) => (ms >= SPRING_FORWARD && ms < FALL_BACK ? -240 : -300);

const H = 3_600_000;

/** Readings every 5 minutes at hh:m2:30 with the receiver 40 s fast, newest first as the service answers. */
function egvs(
  fromMs: number,
  toMs: number,
  offsetOf: (ms: number) => number,
  glucoseAt: (ms: number) => number = () => 120,
): EgvV2[] {
  const out: EgvV2[] = [];
  for (let ms = fromMs + 150_000; ms < toMs; ms += 5 * MS_PER_MINUTE) {
    const value = glucoseAt(ms);
    out.push({
      systemTime: formatDateTime(ms),
      displayTime: formatDateTime(ms + offsetOf(ms) * MS_PER_MINUTE + 40_000),
      value,
      realtimeValue: value,
      smoothedValue: null,
      status: value === 39 ? "low" : value === 401 ? "high" : null,
      trend: "flat",
      trendRate: 0,
    });
  }
  return out.reverse();
}

const BOUNDS: DataBounds = {
  firstDay: "2026-01-01",
  lastDay: "2026-11-22",
  startMs: Date.UTC(2026, 0, 1),
  endMs: Date.UTC(2026, 10, 22, 12),
  offsetMinutes: -300,
};

/** The day as the loader builds it: every reading of its fetch window, and nothing else. */
function day(d: string, offsetOf: (ms: number) => number, extra: Partial<DayInput> = {}) {
  const w = dayFetchWindow(d);
  const from = Date.parse(`${w.startDate}Z`);
  const to = Date.parse(`${w.endDate}Z`);
  return buildDay({
    day: d,
    preferences: DEFAULT_PREFERENCES,
    bounds: BOUNDS,
    egvs: { unit: "mg/dL", rateUnit: "mg/dL/min", egvs: egvs(from, to, offsetOf) },
    events: [],
    calibrations: [],
    preset: TARGET_PRESETS.standard,
    ...extra,
  });
}

function expectStrictlyIncreasing(ts: number[]) {
  for (let i = 1; i < ts.length; i++) expect(ts[i]!).toBeGreaterThan(ts[i - 1]!);
}

/** The axis labels as the trace chart (components/charts/TraceInteractive.tsx) writes them. */
function tickLabels(model: ReturnType<typeof buildDay>) {
  const { trace, clockChanges } = model.chart;
  return (trace.ticks ?? []).map((t) =>
    wallClockLabel(t, offsetAt(t, trace.initialOffsetMinutes, clockChanges), trace.endMs - trace.startMs),
  );
}

function event(
  eventId: string,
  systemTime: string,
  displayTime: string,
  extra: Partial<EventV2> = {},
): EventV2 {
  return {
    systemTime,
    displayTime,
    eventType: "carbs",
    eventSubType: null,
    value: 45,
    unit: "grams",
    eventId,
    eventStatus: "created",
    ...extra,
  };
}

describe("the day the clocks go back (US Eastern, 1 November 2026)", () => {
  const model = day("2026-11-01", eastern);

  it("keeps all 25 hours of readings, the repeated hour twice, in the order they happened", () => {
    // 00:00 EDT is 04:00Z and midnight EST the next night is 05:00Z: 25 h, 300 readings.
    expect(model.points).toHaveLength(300);
    expect(model.points[0]).toMatchObject({
      t: Date.UTC(2026, 10, 1, 4, 2, 30),
      display: "2026-11-01T00:03:10",
    });
    expect(model.points.at(-1)).toMatchObject({
      t: Date.UTC(2026, 10, 2, 4, 57, 30),
      display: "2026-11-01T23:58:10",
    });
    expectStrictlyIncreasing(model.points.map((p) => p.t));
    // 01:00–01:59 happens on EDT (05:xxZ) and again on EST (06:xxZ).
    expect(model.points.filter((p) => p.display.startsWith("2026-11-01T01:"))).toHaveLength(24);
    expect(model.table.find((r) => r.label === "2026-11-01 01:00")?.readings).toBe(24);
    expect(model.table).toHaveLength(24);
  });

  it("names the change, and calls nothing missing", () => {
    expect(model.clockChanges).toEqual([
      {
        t: FALL_BACK,
        fromMinutes: -240,
        toMinutes: -300,
        when: "at 02:00",
        note: "Clocks went back 1 h at 02:00 — the repeated hour is shown in order of real time.",
      },
    ]);
    expect(model.coverage).toEqual({ expected: 300, missing: 0 });
  });

  it("draws the 25 hours on real time, labelled with the patient's clock", () => {
    expect(model.chart.trace.startMs).toBe(Date.UTC(2026, 10, 1, 4));
    expect(model.chart.trace.endMs).toBe(Date.UTC(2026, 10, 2, 5));
    expect(model.chart.trace.initialOffsetMinutes).toBe(-240);
    expect(model.chart.trace.points.every((p) => p.value !== null)).toBe(true);
    // 00:00 EDT, the switch (01:00 EST), then every 3 h on EST up to midnight.
    expect(model.chart.trace.ticks).toEqual(
      [4, 6, 8, 11, 14, 17, 20, 23, 26, 29].map((h) => Date.UTC(2026, 10, 1) + h * H),
    );
    expect(tickLabels(model)).toEqual([
      "00:00",
      "01:00",
      "03:00",
      "06:00",
      "09:00",
      "12:00",
      "15:00",
      "18:00",
      "21:00",
      "00:00",
    ]);
  });

  it("lists the day's events by real time, without deleted ones or the next day's", () => {
    const withEvents = day("2026-11-01", eastern, {
      events: [
        event("b", "2026-11-01T06:20:00", "2026-11-01T01:20:00", {
          eventType: "insulin",
          value: 4.5,
          unit: "units",
        }),
        event("a", "2026-11-01T05:30:00", "2026-11-01T01:30:00"),
        event("gone", "2026-11-01T05:40:00", "2026-11-01T01:40:00", { eventStatus: "deleted" }),
        event("tomorrow", "2026-11-02T05:10:00", "2026-11-02T00:10:00"),
        event("health", "2026-11-01T20:00:00", "2026-11-01T15:00:00", {
          eventType: "health",
          eventSubType: "stress",
          value: null,
          unit: null,
        }),
      ],
      calibrations: [
        { systemTime: "2026-11-01T12:00:00", displayTime: "2026-11-01T07:00:00", value: 6, unit: "mmol/L" },
        { systemTime: "2026-11-02T12:00:00", displayTime: "2026-11-02T07:00:00", value: 6, unit: "mmol/L" },
      ],
    });
    // 01:30 EDT happened before 01:20 EST.
    expect(withEvents.events).toEqual([
      {
        key: "a",
        displayTime: "2026-11-01T01:30:00",
        clock: "01:30",
        type: "Carbs",
        detail: null,
        amount: "45 grams",
      },
      {
        key: "b",
        displayTime: "2026-11-01T01:20:00",
        clock: "01:20",
        type: "Insulin",
        detail: null,
        amount: "4.5 units",
      },
      {
        key: "health",
        displayTime: "2026-11-01T15:00:00",
        clock: "15:00",
        type: "Health",
        detail: "Stress",
        amount: null,
      },
    ]);
    expect(withEvents.chart.events.map((e) => e.t)).toEqual([
      Date.UTC(2026, 10, 1, 5, 30),
      Date.UTC(2026, 10, 1, 6, 20),
      Date.UTC(2026, 10, 1, 20),
    ]);
    // As entered in the table; in the unit on screen on the chart: 6 × 18.0182 = 108.1 → 108.
    expect(withEvents.calibrations.map((c) => [c.displayTime, c.valueText])).toEqual([
      ["2026-11-01T07:00:00", "6.0 mmol/L"],
    ]);
    expect(withEvents.chart.calibrations).toEqual([
      { t: Date.UTC(2026, 10, 1, 12), displayTime: "2026-11-01T07:00:00", value: 108 },
    ]);
  });

  it("links the days either side", () => {
    expect(model.title).toBe("Sunday 1 November 2026");
    expect(model.previous).toEqual({ day: "2026-10-31", label: "Sat 31 Oct" });
    expect(model.next).toEqual({ day: "2026-11-02", label: "Mon 2 Nov" });
  });
});

describe("the day the clocks go forward (US Eastern, 8 March 2026)", () => {
  const model = day("2026-03-08", eastern);

  it("has 23 hours of readings and does not call the skipped hour missing", () => {
    // 00:00 EST is 05:00Z, midnight EDT the next night 04:00Z: 23 h, 276 readings.
    expect(model.points).toHaveLength(276);
    expect(model.points.some((p) => p.display.startsWith("2026-03-08T02:"))).toBe(false);
    expectStrictlyIncreasing(model.points.map((p) => p.t));
    expect(model.coverage).toEqual({ expected: 276, missing: 0 });
    expect(model.table.map((r) => r.label)).not.toContain("2026-03-08 02:00");
    expect(model.table).toHaveLength(23);
  });

  it("names the change and draws 23 hours", () => {
    expect(model.clockChanges).toEqual([
      {
        t: SPRING_FORWARD,
        fromMinutes: -300,
        toMinutes: -240,
        when: "at 02:00",
        note: "Clocks went forward 1 h at 02:00 — the skipped hour is not missing data.",
      },
    ]);
    expect(model.chart.trace.endMs - model.chart.trace.startMs).toBe(23 * H);
    expect(tickLabels(model)).toEqual([
      "00:00",
      "03:00",
      "06:00",
      "09:00",
      "12:00",
      "15:00",
      "18:00",
      "21:00",
      "00:00",
    ]);
  });
});

describe("travel days", () => {
  // New York to Tokyo (−300 → +540) on 9 January 2026 at 14:00Z, back on 15 January at 14:00Z.
  const out = Date.UTC(2026, 0, 9, 14);
  const back = Date.UTC(2026, 0, 15, 14);
  const traveller = (ms: number) => (ms >= out && ms < back ? 540 : -300);

  it("flying east, the day is 10 hours of real time and nothing is missing", () => {
    const model = day("2026-01-09", traveller);
    // 00:00 in New York is 05:00Z; at 14:00Z (09:00) the clock jumps to 23:00; midnight is 15:00Z.
    expect(model.chart.trace.startMs).toBe(Date.UTC(2026, 0, 9, 5));
    expect(model.chart.trace.endMs).toBe(Date.UTC(2026, 0, 9, 15));
    expect(model.points).toHaveLength(120);
    expect(model.coverage).toEqual({ expected: 120, missing: 0 });
    expect(model.clockChanges.map((c) => c.note)).toEqual([
      "Clocks went forward 14 h at 09:00 — the skipped hours are not missing data.",
    ]);
    expect(tickLabels(model)).toEqual(["00:00", "03:00", "06:00", "23:00", "00:00"]);
  });

  it("flying west, the day is 38 hours of real time, every repeated hour kept in order", () => {
    const model = day("2026-01-15", traveller);
    // Midnight in Tokyo is 14 Jan 15:00Z; 23:00 there becomes 09:00 in New York; midnight is 16 Jan 05:00Z.
    expect(model.chart.trace.startMs).toBe(Date.UTC(2026, 0, 14, 15));
    expect(model.chart.trace.endMs).toBe(Date.UTC(2026, 0, 16, 5));
    expect(model.points).toHaveLength(38 * 12);
    expectStrictlyIncreasing(model.points.map((p) => p.t));
    expect(model.points.filter((p) => p.display.startsWith("2026-01-15T12:"))).toHaveLength(24);
    expect(model.coverage).toEqual({ expected: 456, missing: 0 });
    expect(model.clockChanges.map((c) => c.note)).toEqual([
      "Clocks went back 14 h at 23:00 — the repeated hours are shown in order of real time.",
    ]);
  });

  it("when no readings were taken in the air, says the change lies between the last and the next", () => {
    const w = dayFetchWindow("2026-01-15");
    const inTheAir = (e: EgvV2) =>
      e.systemTime >= "2026-01-15T12:30:00" && e.systemTime < "2026-01-15T14:30:00";
    const model = day("2026-01-15", traveller, {
      egvs: {
        unit: "mg/dL",
        rateUnit: "mg/dL/min",
        egvs: egvs(Date.parse(`${w.startDate}Z`), Date.parse(`${w.endDate}Z`), traveller).filter(
          (e) => !inTheAir(e),
        ),
      },
    });
    // Last reading 12:27:30Z = 21:27 in Tokyo; first in New York 14:32:30Z = 23:32 on Tokyo's clock.
    expect(model.clockChanges).toEqual([
      {
        t: Date.UTC(2026, 0, 15, 14, 30),
        fromMinutes: 540,
        toMinutes: -300,
        when: "between 21:27 and 23:32",
        note: "Clocks went back 14 h between 21:27 and 23:32 — the repeated hours are shown in order of real time.",
      },
    ]);
    // The two hours in the air are missing, and only they.
    expect(model.coverage).toEqual({ expected: 456, missing: 24 });
  });

  it("the whole day abroad is an ordinary 24 hours", () => {
    const model = day("2026-01-10", traveller);
    expect(model.points).toHaveLength(288);
    expect(model.clockChanges).toEqual([]);
    expect(model.chart.trace.initialOffsetMinutes).toBe(540);
    expect(model.coverage).toEqual({ expected: 288, missing: 0 });
  });
});

describe("readings outside the measuring range", () => {
  // Four readings on a UTC clock: 39 (below 40), 100, 401 (above 400), 120.
  const values = [39, 100, 401, 120];
  const start = Date.UTC(2026, 0, 20);
  const records = egvs(
    start,
    start + 20 * MS_PER_MINUTE,
    () => 0,
    (ms) => values[(ms - start - 150_000) / 300_000]!,
  );
  const build = (unit: "mg/dL" | "mmol/L" | null) =>
    buildDay({
      day: "2026-01-20",
      preferences: { ...DEFAULT_PREFERENCES, unit },
      bounds: BOUNDS,
      egvs: { unit: "mg/dL", rateUnit: "mg/dL/min", egvs: records },
      events: [],
      calibrations: [],
      preset: TARGET_PRESETS.standard,
    });

  it("counts them in the numbers as 39 and 401 but shows them as LOW and HIGH", () => {
    const model = build(null);
    expect(model.points.map((p) => p.sentinel)).toEqual(["low", null, "high", null]);
    // (39 + 100 + 401 + 120) / 4 = 165; one reading each very low and very high, two in range.
    expect(model.summary).toEqual({
      readings: 4,
      mean: "165",
      lowest: "LOW",
      highest: "HIGH",
      goals: expect.objectContaining({ group: "standard" }),
      lows: 1,
      highs: 1,
      lowSentinels: 1,
      highSentinels: 1,
    });
    const goals = model.summary.goals!;
    expect(goals.bands.map((b) => [b.key, b.percentText, b.readings])).toEqual([
      ["veryHigh", "25%", 1],
      ["high", "0%", 0],
      ["inRange", "50%", 2],
      ["low", "0%", 0],
      ["veryLow", "25%", 1],
    ]);
    // The day judged against the cumulative goals: below 70 includes the LOW reading.
    expect(goals.goals.find((g) => g.metric === "timeBelow70")).toMatchObject({
      valueText: "25%",
      met: false,
    });
    expect(goals.unmet[0]?.sentence).toBe("Time below 54 mg/dL is 25% — 25 times the goal of under 1%.");
    expect(model.table).toEqual([
      { label: "2026-01-20 00:00", readings: 4, lowest: "LOW", mean: "165", highest: "HIGH" },
    ]);
    expect(JSON.stringify([model.summary, model.table])).not.toMatch(/\b(39|401)\b/);
  });

  it("does the same in mmol/L", () => {
    const model = build("mmol/L");
    // 100 / 18.0182 = 5.55 → 5.5, 120 → 6.66 → 6.7; sentinels sit at 2.2 and 22.3 on the chart.
    expect(model.points.map((p) => p.value)).toEqual([2.2, 5.5, 22.3, 6.7]);
    // Mean 165 mg/dL = 9.16 mmol/L.
    expect(model.summary).toMatchObject({ mean: "9.2", lowest: "LOW", highest: "HIGH" });
    expect(model.table[0]).toMatchObject({ lowest: "LOW", highest: "HIGH" });
  });
});

describe("an mmol/L account viewed in mg/dL", () => {
  const start = Date.UTC(2026, 0, 20);
  const record = (minutes: number, value: number, status: EgvV2["status"] = null): EgvV2 => ({
    systemTime: formatDateTime(start + minutes * MS_PER_MINUTE),
    displayTime: formatDateTime(start + minutes * MS_PER_MINUTE),
    value,
    realtimeValue: value,
    smoothedValue: null,
    status,
    trend: "flat",
    trendRate: 0,
  });
  const build = (egvs: EgvV2[]) =>
    buildDay({
      day: "2026-01-20",
      preferences: { ...DEFAULT_PREFERENCES, unit: "mg/dL" },
      bounds: BOUNDS,
      egvs: { unit: "mmol/L", rateUnit: "mmol/L/min", egvs },
      events: [],
      calibrations: [],
      preset: TARGET_PRESETS.standard,
    });

  it("counts a LOW sent as 2.2 as 39 mg/dL, as the metrics do, not as 2.2 × 18.0182 = 39.6", () => {
    // 5.2 mmol/L × 18.0182 = 93.69 → 94 mg/dL; (39 + 39 + 94) / 3 = 57.33 → 57; with each LOW
    // as 2.2 × 18.0182 = 39.64 it would be (39.64 + 39.64 + 94) / 3 = 57.76 → 58.
    const model = build([record(2.5, 2.2), record(5, 2.2), record(7.5, 5.2)]);
    expect(model.summary).toMatchObject({ readings: 3, mean: "57", lowest: "LOW", lowSentinels: 2 });
  });

  it("gives a day of LOW readings only the mean LOW, not 40", () => {
    const model = build([record(2.5, 2.2, "low"), record(7.5, 2.2)]);
    expect(model.summary).toMatchObject({ mean: "LOW", lowest: "LOW", highest: "LOW" });
  });
});

describe("a real 40 mg/dL viewed in mmol/L", () => {
  it("is 2.2 in the numbers and the table, not LOW: only the data's own unit says what is out of range", () => {
    const start = Date.UTC(2026, 0, 20);
    const values = [40, 100];
    const records = egvs(
      start,
      start + 10 * MS_PER_MINUTE,
      () => 0,
      (ms) => values[(ms - start - 150_000) / 300_000]!,
    );
    const model = buildDay({
      day: "2026-01-20",
      preferences: { ...DEFAULT_PREFERENCES, unit: "mmol/L" },
      bounds: BOUNDS,
      egvs: { unit: "mg/dL", rateUnit: "mg/dL/min", egvs: records },
      events: [],
      calibrations: [],
      preset: TARGET_PRESETS.standard,
    });
    expect(model.summary).toMatchObject({ lowest: "2.2", highest: "5.5", lowSentinels: 0 });
    expect(model.table[0]).toMatchObject({ lowest: "2.2", highest: "5.5" });
  });
});

describe("a day with a real gap", () => {
  // An ordinary June day in New York (UTC−4); no readings from 10:00 to 13:00 local (14:00Z–17:00Z).
  const w = dayFetchWindow("2026-06-10");
  const all = egvs(Date.parse(`${w.startDate}Z`), Date.parse(`${w.endDate}Z`), eastern);
  const gap = (e: EgvV2) => e.displayTime >= "2026-06-10T10:00:00" && e.displayTime < "2026-06-10T13:00:00";

  it("reports the three missing hours as 36 readings and breaks the line there once", () => {
    const model = day("2026-06-10", eastern, {
      egvs: { unit: "mg/dL", rateUnit: "mg/dL/min", egvs: all.filter((e) => !gap(e)) },
    });
    expect(model.points).toHaveLength(288 - 36);
    expect(model.coverage).toEqual({ expected: 288, missing: 36 });
    const breaks = model.chart.trace.points.filter((p) => p.value === null);
    // Midway between 09:58:10 (13:57:30Z) and 13:03:10 (17:02:30Z).
    expect(breaks).toEqual([{ t: Date.UTC(2026, 5, 10, 15, 30), value: null }]);
    expect(model.table.map((r) => r.label)).not.toContain("2026-06-10 11:00");
    expect(model.clockChanges).toEqual([]);
  });

  it("on the newest day counts only up to the newest reading, and offers no next day", () => {
    const newest = Date.UTC(2026, 5, 10, 16, 2, 30);
    const model = day("2026-06-10", eastern, {
      bounds: { ...BOUNDS, lastDay: "2026-06-10", endMs: newest },
      egvs: {
        unit: "mg/dL",
        rateUnit: "mg/dL/min",
        egvs: all.filter((e) => e.systemTime <= formatDateTime(newest)),
      },
    });
    // 04:02:30Z to 16:02:30Z: 145 readings; none missing, the rest of the day has not happened yet.
    expect(model.points).toHaveLength(145);
    expect(model.coverage).toEqual({ expected: 145, missing: 0 });
    expect(model.next).toBeNull();
    expect(model.previous?.day).toBe("2026-06-09");
    // The axis still spans the whole day.
    expect(model.chart.trace.endMs - model.chart.trace.startMs).toBe(24 * H);
  });

  it("on a day without readings, says all of them are missing and offers no previous day at the start", () => {
    const model = day("2026-01-01", eastern, {
      egvs: { unit: "mg/dL", rateUnit: "mg/dL/min", egvs: [] },
      bounds: { ...BOUNDS, startMs: Date.UTC(2025, 0, 1) },
    });
    expect(model.points).toEqual([]);
    expect(model.summary).toMatchObject({ readings: 0, mean: null, lowest: null, goals: null });
    // No reading tells the clock: the newest reading's offset (UTC−5) is used.
    expect(model.chart.trace.startMs).toBe(Date.UTC(2026, 0, 1, 5));
    expect(model.coverage).toEqual({ expected: 288, missing: 288 });
    expect(model.previous).toBeNull();
  });
});

describe("the date asked for", () => {
  it("is the latest day when absent or empty", () => {
    expect(parseDayParam(undefined)).toEqual({ kind: "latest" });
    expect(parseDayParam("")).toEqual({ kind: "latest" });
    expect(parseDayParam("  ")).toEqual({ kind: "latest" });
  });

  it("takes a real YYYY-MM-DD day, the first of repeated parameters", () => {
    expect(parseDayParam("2026-11-01")).toEqual({ kind: "day", day: "2026-11-01" });
    expect(parseDayParam("2028-02-29")).toEqual({ kind: "day", day: "2028-02-29" });
    expect(parseDayParam(["2026-03-08", "2026-11-01"])).toEqual({ kind: "day", day: "2026-03-08" });
  });

  it("refuses anything else with a reason", () => {
    for (const text of ["2026-2-3", "01/11/2026", "2026-11-01T00:00:00", "yesterday", "2026-11-01x"]) {
      expect(parseDayParam(text)).toEqual({
        kind: "invalid",
        text,
        problem: "write the day as YYYY-MM-DD, for example 2026-11-01",
      });
    }
    for (const text of ["2026-02-29", "2026-02-30", "2026-13-01", "2026-04-31", "2026-00-10"]) {
      expect(parseDayParam(text)).toEqual({
        kind: "invalid",
        text,
        problem: "there is no such day in the calendar",
      });
    }
  });
});

describe("calendar helpers", () => {
  it("move by days across months, years and daylight saving, whatever the server's zone", () => {
    expect(shiftDay("2026-03-08", 1)).toBe("2026-03-09");
    expect(shiftDay("2026-11-01", -1)).toBe("2026-10-31");
    expect(shiftDay("2026-01-01", -1)).toBe("2025-12-31");
    expect(shiftDay("2028-02-28", 1)).toBe("2028-02-29");
    expect(dayInWords("2026-03-08")).toBe("Sunday 8 March 2026");
  });

  it("fetch the day ±14 h of systemTime and 6 h of the episodes' context", () => {
    expect(windowText(dayFetchWindow("2026-11-01"))).toEqual({
      startDate: "2026-10-31T04:00:00",
      endDate: "2026-11-02T20:00:00",
    });
  });

  it("place a day against the data and link it", () => {
    const bounds = { firstDay: "2025-01-01", lastDay: "2026-11-22" };
    expect(placeDay("2024-12-31", bounds)).toBe("before");
    expect(placeDay("2025-01-01", bounds)).toBe("within");
    expect(placeDay("2026-11-22", bounds)).toBe("within");
    expect(placeDay("2026-11-23", bounds)).toBe("after");
    expect(dayHref(null)).toBe("/dashboard/day");
    expect(dayHref("2026-11-01")).toBe("/dashboard/day?date=2026-11-01");
  });

  it("read the data's bounds from dataRange", () => {
    expect(dataBounds(null)).toBeNull();
    expect(
      dataBounds({
        start: { systemTime: "2025-01-01T15:40:17", displayTime: "2025-01-01T10:40:17" },
        end: { systemTime: "2026-11-23T04:55:17", displayTime: "2026-11-22T23:55:17" },
      }),
    ).toEqual({
      firstDay: "2025-01-01",
      lastDay: "2026-11-22",
      startMs: Date.UTC(2025, 0, 1, 15, 40, 17),
      endMs: Date.UTC(2026, 10, 23, 4, 55, 17),
      offsetMinutes: -300,
    });
  });

  it("word a change of the clock by its size", () => {
    expect(clockChangeNote({ fromMinutes: 630, toMinutes: 660 }, "at 02:00")).toBe(
      "Clocks went forward 30 min at 02:00 — the skipped minutes are not missing data.",
    );
    expect(clockChangeNote({ fromMinutes: 345, toMinutes: 0 }, "at 18:45")).toBe(
      "Clocks went back 5 h 45 min at 18:45 — the repeated hours are shown in order of real time.",
    );
  });
});

describe("dayFetchWindow", () => {
  it("widens the day by the largest zone offsets and 6 h for episodes crossing midnight", () => {
    expect(windowText(dayFetchWindow("2026-11-01"))).toEqual({
      startDate: "2026-10-31T04:00:00",
      endDate: "2026-11-02T20:00:00",
    });
  });

  it("never past the dates a request may read: the first and last days stop at 2000 and 2099", () => {
    expect(windowText(dayFetchWindow("2000-01-01"))).toEqual({
      startDate: "2000-01-01T00:00:00",
      endDate: "2000-01-02T20:00:00",
    });
    expect(windowText(dayFetchWindow("2099-12-31"))).toEqual({
      startDate: "2099-12-30T04:00:00",
      endDate: "2099-12-31T23:59:59",
    });
  });
});
