import { describe, expect, it } from "vitest";
import { formatDateTime, parseDateTime } from "@/lib/cgm/datetime";
import {
  addDays,
  type ClockSample,
  checkPatientDays,
  clockProbeWindow,
  dayCount,
  lastPatientDays,
  newestOf,
  newestRecord,
  offsetAt,
  onReceiverClock,
  patientDaysText,
  patientDaysWindow,
  previousPatientDays,
  utcNow,
  wallBounds,
  windowDays,
} from "./patient-days";

const ms = (text: string) => parseDateTime(text)!;
const HOUR = 3_600_000;
/** A reading at systemTime `system` on a receiver `offsetHours` from it. */
const sample = (system: string, offsetHours: number): ClockSample => ({
  t: ms(system),
  displayMs: ms(system) + offsetHours * HOUR,
});
const window = (w: { startMs: number; endMs: number }) => [
  formatDateTime(w.startMs),
  formatDateTime(w.endMs),
];

describe("the patient's days", () => {
  it("counts, shifts and steps back runs of days across month and year ends", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(dayCount({ firstDay: "2026-11-12", lastDay: "2026-11-25" })).toBe(14);
    expect(previousPatientDays({ firstDay: "2026-11-12", lastDay: "2026-11-25" })).toEqual({
      firstDay: "2026-10-29",
      lastDay: "2026-11-11",
    });
  });

  it("takes the last N days as N days ending on the receiver's day of the newest reading", () => {
    // Chicago (UTC−6): 03:05 UTC on the 26th is still the evening of the 25th on the receiver.
    expect(lastPatientDays(sample("2026-11-26T03:05:00", -6), 14)).toEqual({
      firstDay: "2026-11-12",
      lastDay: "2026-11-25",
    });
    expect(lastPatientDays(sample("2026-11-26T03:05:00", 0), 1)).toEqual({
      firstDay: "2026-11-26",
      lastDay: "2026-11-26",
    });
  });

  it("checks picked days and says what to change", () => {
    expect(checkPatientDays("2026-11-01", "2026-11-01", 90)).toEqual({
      ok: true,
      days: { firstDay: "2026-11-01", lastDay: "2026-11-01" },
    });
    expect(checkPatientDays("2026-08-26", "2026-11-23", 90).ok).toBe(true);
    const refuse = (first: string | undefined, last: string | undefined) => {
      const r = checkPatientDays(first, last, 90);
      return r.ok ? null : r.message;
    };
    expect(refuse("2026-08-25", "2026-11-23")).toBe("choose at most 90 days; these span 91");
    expect(refuse(undefined, "2026-11-23")).toMatch(/both/);
    expect(refuse("2026-02-30", "2026-03-02")).toMatch(/first day is not a date/);
    expect(refuse("2026-11-01", "2026-11-01T00:00:00")).toMatch(/last day is not a date/);
    expect(refuse("2026-11-02", "2026-11-01")).toMatch(/must not be before/);
    expect(refuse("1999-12-31", "2000-01-02")).toMatch(/between 2000-01-01 and 2099-12-31/);
  });
});

describe("clock offsets", () => {
  it("reads the offset of the sample nearest on the receiver's clock, in quarter hours", () => {
    // Daylight saving ends in Chicago on 1 Nov 2026 at 02:00 CDT (07:00 UTC): −5 h, then −6 h.
    const samples = [sample("2026-11-01T04:55:00", -5), sample("2026-11-01T07:05:00", -6)];
    expect(offsetAt(samples, ms("2026-11-01T00:00:00"), 0)).toBe(-5 * HOUR);
    expect(offsetAt(samples, ms("2026-11-02T00:00:00"), 0)).toBe(-6 * HOUR);
    // 40 s of receiver drift is not a change of zone.
    expect(offsetAt([{ t: 0, displayMs: -6 * HOUR + 40_000 }], 0, 0)).toBe(-6 * HOUR);
    expect(offsetAt([], ms("2026-11-01T00:00:00"), -5 * HOUR)).toBe(-5 * HOUR);
  });

  it("probes around where the guessed clock puts a boundary", () => {
    expect(window(clockProbeWindow(ms("2026-11-20T00:00:00"), -6 * HOUR))).toEqual([
      "2026-11-20T04:00:00",
      "2026-11-20T08:00:00",
    ]);
  });
});

describe("onReceiverClock", () => {
  it("moves a UTC instant by the clock of the reading nearest it in time", () => {
    const samples = [sample("2026-11-01T04:55:00", -5), sample("2026-11-01T07:05:00", -6)];
    expect(formatDateTime(onReceiverClock(ms("2026-11-01T05:30:00"), samples, 0))).toBe(
      "2026-11-01T00:30:00",
    );
    expect(formatDateTime(onReceiverClock(ms("2026-11-01T09:00:00"), samples, 0))).toBe(
      "2026-11-01T03:00:00",
    );
    expect(formatDateTime(onReceiverClock(ms("2026-11-01T09:00:00"), [], -6 * HOUR))).toBe(
      "2026-11-01T03:00:00",
    );
  });
});

describe("patientDaysWindow", () => {
  const day = { firstDay: "2026-11-20", lastDay: "2026-11-20" };

  it("puts a day of a US receiver (UTC−6) from its 00:00 to 23:59:59, on systemTime", () => {
    const w = patientDaysWindow(day, { startMs: -6 * HOUR, endMs: -6 * HOUR }, null);
    expect(window(w)).toEqual(["2026-11-20T06:00:00", "2026-11-21T05:59:59"]);
    expect(window(wallBounds(day))).toEqual(["2026-11-20T00:00:00", "2026-11-21T00:00:00"]);
  });

  it("moves each end by the clock in force there (a day on which daylight saving ends is 25 hours)", () => {
    const w = patientDaysWindow(
      { firstDay: "2026-11-01", lastDay: "2026-11-01" },
      { startMs: -5 * HOUR, endMs: -6 * HOUR },
      null,
    );
    expect(window(w)).toEqual(["2026-11-01T05:00:00", "2026-11-02T05:59:59"]);
    expect(w.endMs + 1000 - w.startMs).toBe(25 * HOUR);
  });

  it("never spans more than the longest window a request may read", () => {
    // 90 days across the end of daylight saving: 90 days and an hour, less the first hour.
    const days = { firstDay: "2026-09-01", lastDay: "2026-11-29" };
    const w = patientDaysWindow(days, { startMs: -5 * HOUR, endMs: -6 * HOUR }, null, 90);
    expect(window(w)).toEqual(["2026-09-01T05:59:59", "2026-11-30T05:59:59"]);
    expect(window(patientDaysWindow(days, { startMs: -5 * HOUR, endMs: -6 * HOUR }, null))[0]).toBe(
      "2026-09-01T05:00:00",
    );
  });

  it("ends at the newest record when the last day is still running, not before the first", () => {
    const offsets = { startMs: -6 * HOUR, endMs: -6 * HOUR };
    expect(window(patientDaysWindow(day, offsets, ms("2026-11-20T15:05:00")))).toEqual([
      "2026-11-20T06:00:00",
      "2026-11-20T15:05:00",
    ]);
    // Data that ended before the day does not turn the window around.
    expect(window(patientDaysWindow(day, offsets, ms("2026-11-19T15:05:00")))[1]).toBe("2026-11-21T05:59:59");
  });
});

describe("windowDays", () => {
  it("names the days a systemTime window's ends fall on, by the clock of the readings nearest", () => {
    const samples = [sample("2026-11-20T06:00:00", -6), sample("2026-11-21T05:55:00", -6)];
    expect(
      windowDays({ startMs: ms("2026-11-20T06:00:00"), endMs: ms("2026-11-21T05:59:59") }, samples),
    ).toEqual({
      firstDay: "2026-11-20",
      lastDay: "2026-11-20",
    });
    expect(windowDays({ startMs: 0, endMs: 1 }, [])).toBeNull();
  });
});

describe("newestRecord", () => {
  const group = (system: string, display: string) => ({
    start: { systemTime: "2026-01-01T00:00:00", displayTime: "2026-01-01T00:00:00" },
    end: { systemTime: system, displayTime: display },
  });

  it("is the newest EGV's two clocks; for exports without EGVs the newest other record's", () => {
    const egvs = group("2026-11-26T03:05:00", "2026-11-25T21:05:00");
    const events = group("2026-11-26T04:00:00", "2026-11-25T22:00:00");
    expect(newestRecord({ egvs, events, calibrations: null })).toEqual(sample("2026-11-26T03:05:00", -6));
    expect(newestRecord({ egvs, events, calibrations: null }, true)).toEqual(
      sample("2026-11-26T03:05:00", -6),
    );
    expect(newestRecord({ egvs: null, events, calibrations: null })).toBeNull();
    expect(newestRecord({ egvs: null, events, calibrations: null }, true)).toEqual(
      sample("2026-11-26T04:00:00", -6),
    );
    const calibrations = group("2026-11-26T05:00:00", "2026-11-25T23:00:00");
    expect(newestRecord({ egvs: null, events, calibrations }, true)).toEqual(
      sample("2026-11-26T05:00:00", -6),
    );
  });

  it("newestOf is one group's newest record, whatever the others hold (the record pages count back from it)", () => {
    const egvs = group("2026-11-26T03:05:00", "2026-11-25T21:05:00");
    const calibrations = group("2026-11-20T13:00:00", "2026-11-20T07:00:00");
    const range = { egvs, events: null, calibrations };
    expect(newestOf(range, "calibrations")).toEqual(sample("2026-11-20T13:00:00", -6));
    expect(newestOf(range, "egvs")).toEqual(sample("2026-11-26T03:05:00", -6));
    expect(newestOf(range, "events")).toBeNull();
    expect(newestOf({ ...range, events: group("not a time", "2026-11-25T22:00:00") }, "events")).toBeNull();
  });
});

describe("utcNow", () => {
  it("is now on both clocks, to the whole second: days counted from it are UTC days", () => {
    const now = utcNow(ms("2026-11-26T03:05:09") + 789);
    expect(now).toEqual(sample("2026-11-26T03:05:09", 0));
    expect(lastPatientDays(now, 30)).toEqual({ firstDay: "2026-10-28", lastDay: "2026-11-26" });
  });
});

describe("patientDaysText", () => {
  it("names the first and last day and how many days they span", () => {
    expect(patientDaysText({ firstDay: "2026-11-12", lastDay: "2026-11-25" })).toBe(
      "Thu 12 Nov 2026 – Wed 25 Nov 2026 (14 days)",
    );
    expect(patientDaysText({ firstDay: "2026-12-25", lastDay: "2027-01-07" })).toBe(
      "Fri 25 Dec 2026 – Thu 7 Jan 2027 (14 days)",
    );
    expect(patientDaysText({ firstDay: "2026-11-25", lastDay: "2026-11-25" })).toBe(
      "Wed 25 Nov 2026 – Wed 25 Nov 2026 (1 day)",
    );
  });
});
