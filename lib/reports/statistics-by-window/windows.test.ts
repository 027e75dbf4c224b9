import { describe, expect, it } from "vitest";
import { MGDL_PER_MMOLL } from "@/lib/cgm/units";
import {
  boundFromInput,
  checkRows,
  checkStatisticsRequest,
  DAY_NIGHT_WINDOWS,
  DEFAULT_WINDOWS,
  hoursLabel,
  MAX_NAME_LENGTH,
  MAX_WINDOWS,
  parseSaveBody,
  requestFromRows,
  requestFromWindows,
  rowsFromWindows,
  targetRangeV2,
  timeForInput,
  timeFromInput,
  v1RequestOf,
  WHOLE_DAY_WINDOWS,
  type WindowRow,
  windowsFromRequest,
} from "./windows";

const row = (
  name: string,
  startTime: string,
  endTime: string,
  urgentLow = "54",
  low = "70",
  high = "180",
): WindowRow => ({
  name,
  startTime,
  endTime,
  urgentLow,
  low,
  high,
});

describe("defaults and presets", () => {
  it("are Day 06:00–22:00 and Night 22:00–06:00 with 54/70/180 mg/dL, valid for the service", () => {
    expect(DEFAULT_WINDOWS).toBe(DAY_NIGHT_WINDOWS);
    expect(DAY_NIGHT_WINDOWS.map((w) => [w.name, w.startTime, w.endTime])).toEqual([
      ["Day", "06:00:00", "22:00:00"],
      ["Night", "22:00:00", "06:00:00"],
    ]);
    for (const w of DAY_NIGHT_WINDOWS)
      expect([w.urgentLowMgdl, w.lowMgdl, w.highMgdl]).toEqual([54, 70, 180]);
    for (const preset of [DAY_NIGHT_WINDOWS, WHOLE_DAY_WINDOWS]) {
      expect(checkStatisticsRequest("v2", requestFromWindows(preset, "mg/dL")).ok).toBe(true);
      expect(checkStatisticsRequest("v2", requestFromWindows(preset, "mmol/L")).ok).toBe(true);
    }
  });

  it("show as editor rows in the display unit, rounded as the unit is read", () => {
    expect(rowsFromWindows(DAY_NIGHT_WINDOWS, "mg/dL")[0]).toEqual(row("Day", "06:00", "22:00"));
    expect(rowsFromWindows(DAY_NIGHT_WINDOWS, "mmol/L")[1]).toEqual(
      row("Night", "22:00", "06:00", "3.0", "3.9", "10.0"),
    );
  });
});

describe("form values", () => {
  it("times: hh:mm gains :00, seconds are kept, anything else goes to the service's rule unchanged", () => {
    expect(timeFromInput("06:00")).toBe("06:00:00");
    expect(timeFromInput("23:59:59")).toBe("23:59:59");
    expect(timeFromInput("")).toBe("");
    expect(timeFromInput("6pm")).toBe("6pm");
    expect(timeForInput("06:00:00")).toBe("06:00");
    expect(timeForInput("23:59:59")).toBe("23:59:59");
  });

  it("bounds: numbers (a decimal comma too), null otherwise", () => {
    expect(boundFromInput("70")).toBe(70);
    expect(boundFromInput(" 3,9 ")).toBe(3.9);
    expect(boundFromInput("")).toBeNull();
    expect(boundFromInput("abc")).toBeNull();
    expect(boundFromInput("1e999")).toBeNull();
  });

  it("rows become the v2 request body, names trimmed, bounds in the rows' unit", () => {
    const built = requestFromRows([
      row(" Day ", "06:00", "22:00"),
      row("Night", "22:00", "06:00", "3", "3.9", "10"),
    ]);
    expect(built.issues).toEqual([]);
    expect(built.body).toEqual({
      targetRanges: [
        targetRangeV2("Day", "06:00:00", "22:00:00", { urgentLow: 54, low: 70, high: 180 }),
        targetRangeV2("Night", "22:00:00", "06:00:00", { urgentLow: 3, low: 3.9, high: 10 }),
      ],
    });
  });

  it("a bound that is not a number is the row's problem, named by its input; no body is built", () => {
    const built = requestFromRows([row("Day", "00:00", "00:00", "54", "", "180")]);
    expect(built.body).toBeNull();
    expect(built.issues).toEqual([{ row: 0, field: "low", message: "the low bound must be a number" }]);
  });
});

describe("checkRows: the service's rules, in the browser", () => {
  it("accepts the defaults and gives the body to send", () => {
    const check = checkRows(rowsFromWindows(DAY_NIGHT_WINDOWS, "mg/dL"));
    expect(check.issues).toEqual([]);
    expect(check.body?.targetRanges).toHaveLength(2);
  });

  it("puts an overlap on the list, in the service's words", () => {
    const check = checkRows([row("Day", "06:00", "23:00"), row("Night", "22:00", "06:00")]);
    expect(check.body).toBeNull();
    expect(check.issues).toEqual([{ row: null, message: 'time ranges "Day" and "Night" overlap' }]);
  });

  it("puts a gap on the list", () => {
    const check = checkRows([row("Day", "06:00", "21:00"), row("Night", "22:00", "06:00")]);
    expect(check.issues).toEqual([
      { row: null, message: "no time range covers the day from 21:00:00 to 22:00:00" },
    ]);
  });

  it("puts bounds out of order on their row (v2: urgentLow < low < high)", () => {
    const check = checkRows([
      row("Day", "06:00", "22:00", "70", "70", "180"),
      row("Night", "22:00", "06:00"),
    ]);
    expect(check.issues).toEqual([
      { row: 0, message: 'bounds of "Day" must satisfy urgentLow < low < high (got 70, 70, 180)' },
    ]);
  });

  it("puts a missing name on its row and input", () => {
    const check = checkRows([row("  ", "00:00", "00:00")]);
    expect(check.issues).toEqual([{ row: 0, field: "name", message: "every time range needs a name" }]);
  });

  it("still judges the rest when a bound is unreadable", () => {
    const check = checkRows([row("Day", "06:00", "21:00", "x"), row("Night", "22:00", "06:00")]);
    expect(check.issues.map((i) => i.message)).toEqual([
      "the urgent low bound must be a number",
      "no time range covers the day from 21:00:00 to 22:00:00",
    ]);
  });

  it("refuses an empty list as the service does", () => {
    expect(checkRows([]).issues).toEqual([
      { row: null, message: "at least one named time range is required" },
      { row: null, message: "no time range covers the day from 00:00:00 to 24:00:00" },
    ]);
  });

  it("adds the dashboard's own limits, apart from the service's rules", () => {
    const many = Array.from({ length: MAX_WINDOWS + 1 }, (_, i) =>
      row(`W${i}`, `${String(i).padStart(2, "0")}:00`, `${String(i + 1).padStart(2, "0")}:00`),
    );
    many.push(row("Rest", `${MAX_WINDOWS + 1}:00`, "00:00"));
    const body = requestFromRows(many).body!;
    expect(checkStatisticsRequest("v2", body).ok).toBe(true);
    expect(checkRows(many).issues).toEqual([
      { row: null, message: `this dashboard keeps at most ${MAX_WINDOWS} windows` },
    ]);
    const long = checkRows([row("x".repeat(MAX_NAME_LENGTH + 1), "00:00", "00:00")]);
    expect(long.issues).toEqual([
      { row: 0, field: "name", message: `a window's name has at most ${MAX_NAME_LENGTH} characters` },
    ]);
  });
});

describe("checkStatisticsRequest", () => {
  it("answers with the service's own message (zodMessage) and places issues on rows", () => {
    const verdict = checkStatisticsRequest("v2", {
      targetRanges: [targetRangeV2("", "06:00:00", "22:00:00", { urgentLow: 54, low: 70, high: 180 })],
    });
    expect(verdict.ok).toBe(false);
    expect(verdict.message).toBe(
      "targetRanges.0.name: every time range needs a name; targetRanges: no time range covers the day from 00:00:00 to 06:00:00",
    );
    expect(verdict.issues.map((i) => i.row)).toEqual([0, null]);
  });

  it("v1: one egvRange per window, min ≤ max", () => {
    const body = requestFromWindows(WHOLE_DAY_WINDOWS, "mg/dL");
    const v1 = v1RequestOf(body);
    expect(v1.targetRanges[0]!.egvRange).toEqual({ min: 70, max: 180 });
    expect(checkStatisticsRequest("v1", v1).ok).toBe(true);
    expect(
      checkStatisticsRequest("v1", {
        targetRanges: [{ ...v1.targetRanges[0]!, egvRange: { min: 181, max: 180 } }],
      }).message,
    ).toBe("targetRanges.0.egvRange: egvRange.min must not exceed egvRange.max");
  });
});

describe("units", () => {
  it("sends the bounds at the data unit's precision: 54 / 70 / 180 mg/dL are 3.0 / 3.9 / 10.0 mmol/L", () => {
    // 54 ÷ 18.0182 = 2.99697 → 3.0; 70 ÷ 18.0182 = 3.88496 → 3.9; 180 ÷ 18.0182 = 9.98990 → 10.0
    // (unrounded, 9.99 would count a 10.0 mmol/L reading as high).
    const mmol = requestFromWindows(DAY_NIGHT_WINDOWS, "mmol/L");
    expect(mmol.targetRanges[0]!.egvRanges.map((e) => e.bound)).toEqual([3, 3.9, 10]);
    expect(
      requestFromWindows(DAY_NIGHT_WINDOWS, "mg/dL").targetRanges[0]!.egvRanges.map((e) => e.bound),
    ).toEqual([54, 70, 180]);
  });

  it("sends bounds exactly where rounding would join two of them", () => {
    // 70 → 3.88496 and 71 → 3.94046 both round to 3.9: sent unrounded, still in order.
    const close = [{ ...DAY_NIGHT_WINDOWS[0]!, urgentLowMgdl: 54, lowMgdl: 70, highMgdl: 71 }];
    const [u, l, h] = requestFromWindows(close, "mmol/L").targetRanges[0]!.egvRanges.map((e) => e.bound) as [
      number,
      number,
      number,
    ];
    expect(u).toBeCloseTo(54 / MGDL_PER_MMOLL, 12);
    expect(l).toBeCloseTo(70 / MGDL_PER_MMOLL, 12);
    expect(h).toBeCloseTo(71 / MGDL_PER_MMOLL, 12);
  });

  it("stores what was typed in mmol/L as the nearest whole mg/dL", () => {
    // 3 × 18.0182 = 54.0546 → 54; 3.9 × 18.0182 = 70.27098 → 70; 10 × 18.0182 = 180.182 → 180.
    const body = requestFromRows([row("Whole", "00:00", "00:00", "3", "3.9", "10")]).body!;
    const [w] = windowsFromRequest(body, "mmol/L");
    expect(w).toMatchObject({ urgentLowMgdl: 54, lowMgdl: 70, highMgdl: 180 });
    expect(rowsFromWindows([w!], "mmol/L")[0]).toMatchObject({ urgentLow: "3.0", low: "3.9", high: "10.0" });
    // Typed in mg/dL, bounds are kept as typed.
    const mg = requestFromRows([row("Whole", "00:00", "00:00", "54.5", "70", "180")]).body!;
    expect(windowsFromRequest(mg, "mg/dL")[0]).toMatchObject({
      urgentLowMgdl: 54.5,
      lowMgdl: 70,
      highMgdl: 180,
    });
  });
});

describe("parseSaveBody: the save route's check", () => {
  const body = (unit: unknown, targetRanges: unknown) => ({ unit, targetRanges });

  it("stores checked windows in mg/dL", () => {
    const parsed = parseSaveBody(body("mg/dL", requestFromWindows(DAY_NIGHT_WINDOWS, "mg/dL").targetRanges));
    expect(parsed).toEqual({ ok: true, windows: DAY_NIGHT_WINDOWS });
  });

  it("refuses mmol/L bounds that whole mg/dL would join", () => {
    // 3.0 → 54.0546 → 54 and 3.02 → 54.41496 → 54.
    const close = requestFromRows([row("Whole", "00:00", "00:00", "3.0", "3.02", "10")]).body!;
    expect(parseSaveBody(body("mmol/L", close.targetRanges))).toEqual({
      ok: false,
      message: 'time range "Whole": urgentLow, low and high must be at least 1 mg/dL (0.1 mmol/L) apart',
    });
  });

  it("refuses with the service's message, an unknown unit, or the dashboard's limit", () => {
    const overlapping = requestFromRows([row("Day", "06:00", "23:00"), row("Night", "22:00", "06:00")]).body!;
    expect(parseSaveBody(body("mg/dL", overlapping.targetRanges))).toEqual({
      ok: false,
      message: 'targetRanges: time ranges "Day" and "Night" overlap',
    });
    expect(parseSaveBody(body("mg", []))).toEqual({ ok: false, message: 'unit must be "mg/dL" or "mmol/L"' });
    expect(parseSaveBody(null)).toMatchObject({ ok: false });
    expect(parseSaveBody(body("mg/dL", undefined))).toMatchObject({ ok: false });
    const long = requestFromRows([row("x".repeat(MAX_NAME_LENGTH + 1), "00:00", "00:00")]).body!;
    expect(parseSaveBody(body("mg/dL", long.targetRanges))).toEqual({
      ok: false,
      message: `a window's name has at most ${MAX_NAME_LENGTH} characters`,
    });
  });
});

describe("hoursLabel", () => {
  it("reads a window's hours", () => {
    expect(hoursLabel({ startTime: "22:00:00", endTime: "06:00:00" })).toBe("22:00–06:00");
    expect(hoursLabel({ startTime: "00:00:00", endTime: "00:00:00" })).toBe("all day");
    expect(hoursLabel({ startTime: "00:00:00", endTime: "23:59:59" })).toBe("all day");
    expect(hoursLabel({ startTime: "06:30:15", endTime: "22:00:00" })).toBe("06:30:15–22:00");
  });
});
