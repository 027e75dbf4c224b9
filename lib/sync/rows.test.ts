import { describe, expect, it } from "vitest";
import {
  calibrationOf,
  calibrationRows,
  egvOf,
  egvRows,
  eventOf,
  eventRows,
  joinGroupRows,
  splitByStored,
  systemTimeSpan,
} from "./rows";

const egv = (systemTime: string, value: number, smoothedValue: number | null) => ({
  systemTime,
  displayTime: systemTime.replace("T10", "T11"),
  value,
  realtimeValue: 100,
  smoothedValue,
  status: null,
  trend: "flat" as const,
  trendRate: 0.1,
});

describe("synced rows", () => {
  it("EGVs keep every v2 field and the envelope's units; a repeated systemTime keeps the later record", () => {
    const rows = egvRows("c1", {
      unit: "mmol/L",
      rateUnit: "mmol/L/min",
      egvs: [
        egv("2026-11-20T10:00:00", 5.6, null),
        egv("2026-11-20T10:05:00", 5.7, 5.7),
        egv("2026-11-20T10:00:00", 5.5, 5.5),
      ],
    });
    expect(rows).toEqual([
      {
        connectionId: "c1",
        systemTime: new Date(Date.UTC(2026, 10, 20, 10, 0)),
        displayTime: "2026-11-20T11:00:00",
        value: 5.5,
        realtimeValue: 100,
        smoothedValue: 5.5,
        unit: "mmol/L",
        rateUnit: "mmol/L/min",
        status: null,
        trend: "flat",
        trendRate: 0.1,
        // 5.5 mmol/L × 18.0182 = 99.1001 mg/dL → 99: in range (70–180).
        metricMgdl: 99,
        consensusRange: "inRange",
        recordId: null,
      },
      expect.objectContaining({ systemTime: new Date(Date.UTC(2026, 10, 20, 10, 5)), value: 5.7 }),
    ]);
  });

  it("EGVs carry the value metrics use and its consensus range: the sentinels as 39 and 401", () => {
    const rows = egvRows("c1", {
      unit: "mmol/L",
      rateUnit: "mmol/L/min",
      egvs: [
        { ...egv("2026-11-20T10:00:00", 2.2, 2.2), status: "low" },
        { ...egv("2026-11-20T10:05:00", 22.3, 22.3), status: "high" },
        // 3.8 × 18.0182 = 68.46916 → 68: low (54 to below 70); 10.0 × 18.0182 = 180.182 → 180: in
        // range (70–180 inclusive); 10.1 × 18.0182 = 181.98382 → 182: high.
        egv("2026-11-20T10:10:00", 3.8, 3.8),
        egv("2026-11-20T10:15:00", 10, 10),
        egv("2026-11-20T10:20:00", 10.1, 10.1),
      ],
    });
    expect(rows.map((r) => [r.metricMgdl, r.consensusRange])).toEqual([
      [39, "veryLow"],
      [401, "veryHigh"],
      [68, "low"],
      [180, "inRange"],
      [182, "high"],
    ]);
  });

  it("events are keyed by eventId: the same event seen created then deleted is one deleted row", () => {
    const base = {
      systemTime: "2026-11-20T10:00:00",
      displayTime: "2026-11-20T11:00:00",
      eventType: "carbs" as const,
      eventSubType: null,
      value: 40,
      unit: "grams" as const,
    };
    const rows = eventRows("c1", [
      { ...base, eventId: "a", eventStatus: "created" },
      { ...base, eventId: "b", eventStatus: "created" },
      { ...base, eventId: "a", eventStatus: "deleted" },
    ]);
    expect(rows.map((r) => [r.eventId, r.eventStatus])).toEqual([
      ["a", "deleted"],
      ["b", "created"],
    ]);
    expect(rows[0]).toMatchObject({ connectionId: "c1", value: 40, unit: "grams", eventType: "carbs" });
  });

  it("calibrations are keyed by systemTime", () => {
    const c = {
      systemTime: "2026-11-20T10:00:00",
      displayTime: "2026-11-20T11:00:00",
      unit: "mg/dL" as const,
    };
    expect(
      calibrationRows("c1", [
        { ...c, value: 100 },
        { ...c, value: 104 },
      ]),
    ).toEqual([
      {
        connectionId: "c1",
        systemTime: new Date(Date.UTC(2026, 10, 20, 10)),
        displayTime: c.displayTime,
        value: 104,
        unit: "mg/dL",
        recordId: null,
      },
    ]);
  });

  it("a stored row turns back into exactly the record the service sent", () => {
    const egvs = [egv("2026-11-20T10:00:00", 5.6, null), egv("2026-11-20T10:05:00", 22.3, 22.3)];
    expect(egvRows("c1", { unit: "mmol/L", rateUnit: "mmol/L/min", egvs }).map((r) => egvOf(r))).toEqual(
      egvs,
    );
    const event = {
      systemTime: "2026-11-20T10:00:00",
      displayTime: "2026-11-20T11:00:00",
      eventType: "insulin" as const,
      eventSubType: null,
      value: 2.5,
      unit: "units" as const,
      eventId: "e1",
      eventStatus: "deleted" as const,
    };
    expect(eventRows("c1", [event]).map((r) => eventOf(r))).toEqual([event]);
    const cal = {
      systemTime: "2026-11-20T10:00:00",
      displayTime: "2026-11-20T11:00:00",
      value: 5.6,
      unit: "mmol/L" as const,
    };
    expect(calibrationRows("c1", [cal]).map(calibrationOf)).toEqual([cal]);
  });

  it("v3 records keep their recordId beside; read in v3 mode a reading has no smoothed value and an event its text", () => {
    const egvs = [{ ...egv("2026-11-20T10:00:00", 104, 104), recordId: "r1" }];
    const [row] = egvRows("c1", { unit: "mg/dL", rateUnit: "mg/dL/min", egvs });
    expect(row?.recordId).toBe("r1");
    // A row synced in v2 (realtime 100, smoothed 104), read in v3 mode: as v3 would send it.
    expect(row && egvOf(row, "v3")).toMatchObject({ value: 104, realtimeValue: 104, smoothedValue: null });
    expect(row && egvOf(row, "v2")).toMatchObject({ value: 104, realtimeValue: 100, smoothedValue: 104 });
    const cal = { systemTime: "2026-11-20T10:00:00", displayTime: "2026-11-20T11:00:00", value: 98 };
    expect(calibrationRows("c1", [{ ...cal, unit: "mg/dL", recordId: "r2" }])[0]?.recordId).toBe("r2");
    const note = {
      systemTime: "2026-11-20T10:00:00",
      displayTime: "2026-11-20T11:00:00",
      eventType: "notes" as const,
      eventSubType: null,
      value: null,
      unit: null,
      eventId: "e2",
      eventStatus: "updated" as const,
      text: "pizza",
    };
    const [stored] = eventRows("c1", [note]);
    expect(stored && eventOf(stored, "v3")).toEqual(note);
    const carbs = { ...note, eventType: "carbs" as const, value: 40, unit: "grams" as const, text: null };
    const [plain] = eventRows("c1", [carbs]);
    expect(plain && eventOf(plain, "v3")).toEqual(carbs);
    const { text: _text, ...v2Carbs } = carbs;
    expect(plain && eventOf(plain, "v2")).toEqual(v2Carbs);
  });

  it("the rows of several windows join into one write, a record read in two windows once, the later read winning", () => {
    const read = (egvs: ReturnType<typeof egv>[]) => ({
      group: "egvs" as const,
      rows: egvRows("c1", { unit: "mg/dL", rateUnit: "mg/dL/min", egvs }),
    });
    const joined = joinGroupRows([
      read([egv("2026-11-20T10:00:00", 100, null), egv("2026-11-20T10:05:00", 101, null)]),
      read([egv("2026-11-20T10:05:00", 102, 102), egv("2026-11-20T10:10:00", 103, null)]),
    ]);
    expect(joined.group).toBe("egvs");
    expect(joined.rows.map((r) => [r.systemTime.toISOString(), r.value])).toEqual([
      ["2026-11-20T10:00:00.000Z", 100],
      ["2026-11-20T10:05:00.000Z", 102],
      ["2026-11-20T10:10:00.000Z", 103],
    ]);
    const event = {
      systemTime: "2026-11-20T10:00:00",
      displayTime: "2026-11-20T11:00:00",
      eventType: "insulin" as const,
      eventSubType: null,
      value: 2.5,
      unit: "units" as const,
      eventId: "e1",
      eventStatus: "created" as const,
    };
    // Edited while the windows were read: moved into the next window, read in both.
    const moved = { ...event, systemTime: "2026-11-20T12:00:00", eventStatus: "updated" as const };
    const events = joinGroupRows([
      { group: "events", rows: eventRows("c1", [event]) },
      { group: "events", rows: eventRows("c1", [moved]) },
    ]);
    if (events.group !== "events") throw new Error("events joined as another group");
    expect(events.rows.map((r) => eventOf(r))).toEqual([moved]);
  });
});

describe("rows keyed by systemTime and the stored keys", () => {
  const at = (ms: number) => ({ systemTime: new Date(ms), n: ms });

  it("spans from the first to the last systemTime, in any order; none for no rows", () => {
    expect(systemTimeSpan([at(5), at(1), at(9), at(3)])).toEqual({ from: 1, to: 9 });
    expect(systemTimeSpan([])).toBeNull();
  });

  it("parts rows into those not stored yet and those stored, each kept in order", () => {
    const rows = [at(1), at(2), at(3), at(4)];
    expect(splitByStored(rows, [2, 4, 7])).toEqual({ fresh: [at(1), at(3)], stored: [at(2), at(4)] });
    expect(splitByStored(rows, [])).toEqual({ fresh: rows, stored: [] });
  });

  it("counts every row as stored when the stored keys are not known", () => {
    expect(splitByStored([at(1), at(2)], null)).toEqual({ fresh: [], stored: [at(1), at(2)] });
  });
});
