import { describe, expect, it } from "vitest";
import type { TracePoint } from "./points";
import { traceTable } from "./table";

const point = (
  display: string,
  value: number,
  sentinel: TracePoint["sentinel"] = null,
  t = 0,
): TracePoint => ({
  t,
  display,
  offsetMinutes: 0,
  value,
  sentinel,
  trend: null,
  rate: null,
});

describe("traceTable", () => {
  it("rows per hour of the patient's clock, with lowest, mean and highest", () => {
    const rows = traceTable(
      [
        point("2026-11-22T14:00:00", 100),
        point("2026-11-22T14:05:00", 121),
        point("2026-11-22T15:00:00", 180),
      ],
      "mg/dL",
      "hour",
    );
    // Mean of 100 and 121 is 110.5, rounded as the device does: 111.
    expect(rows).toEqual([
      { label: "2026-11-22 14:00", readings: 2, lowest: "100", mean: "111", highest: "121" },
      { label: "2026-11-22 15:00", readings: 1, lowest: "180", mean: "180", highest: "180" },
    ]);
  });

  it("shows a sentinel as LOW or HIGH, never as 39 or 401", () => {
    const [row] = traceTable(
      [point("2026-11-22T03:00:00", 39, "low"), point("2026-11-22T09:00:00", 401, "high")],
      "mg/dL",
      "day",
    );
    expect(row).toMatchObject({ label: "2026-11-22", lowest: "LOW", highest: "HIGH", readings: 2 });
  });

  it("keeps mmol/L to one decimal", () => {
    const [row] = traceTable(
      [point("2026-11-22T03:00:00", 5.5), point("2026-11-22T03:05:00", 5.8)],
      "mmol/L",
      "day",
    );
    expect(row).toMatchObject({ lowest: "5.5", mean: "5.7", highest: "5.8" });
  });

  it("says LOW for a group of LOW readings only, never their edge value 39 as a mean", () => {
    const [row] = traceTable(
      [point("2026-11-22T03:00:00", 39, "low"), point("2026-11-22T03:05:00", 39, "low")],
      "mg/dL",
      "hour",
    );
    expect(row).toMatchObject({ lowest: "LOW", mean: "LOW", highest: "LOW" });
  });

  it("says LOW in mmol/L too, where the edge value is 2.2", () => {
    const [row] = traceTable([point("2026-11-22T03:00:00", 2.2, "low")], "mmol/L", "hour");
    expect(row).toMatchObject({ lowest: "LOW", mean: "LOW", highest: "LOW" });
  });

  it("says HIGH for a group of HIGH readings only, never 401", () => {
    const [row] = traceTable(
      [point("2026-11-22T03:00:00", 401, "high"), point("2026-11-22T03:05:00", 401, "high")],
      "mg/dL",
      "hour",
    );
    expect(row).toMatchObject({ lowest: "HIGH", mean: "HIGH", highest: "HIGH" });
  });

  it("says LOW for a mix whose mean rounds to 39, never 39", () => {
    // (39 + 39 + 40) / 3 = 39.33 → 39, the sentinel's number; an hour of SandboxUser2 showed it.
    const [row] = traceTable(
      [
        point("2026-11-22T03:00:00", 39, "low"),
        point("2026-11-22T03:05:00", 39, "low"),
        point("2026-11-22T03:10:00", 40),
      ],
      "mg/dL",
      "hour",
    );
    expect(row).toMatchObject({ lowest: "LOW", mean: "LOW", highest: "40" });
  });

  it("says HIGH for a mix whose mean rounds to 401", () => {
    // (401 × 3 + 400) / 4 = 400.75 → 401.
    const [row] = traceTable(
      [
        point("2026-11-22T03:00:00", 401, "high"),
        point("2026-11-22T03:05:00", 401, "high"),
        point("2026-11-22T03:10:00", 401, "high"),
        point("2026-11-22T03:15:00", 400),
      ],
      "mg/dL",
      "hour",
    );
    expect(row).toMatchObject({ lowest: "400", mean: "HIGH", highest: "HIGH" });
  });

  it("keeps the computed mean of a mix of a sentinel and real readings", () => {
    // (39 + 41 + 43) / 3 = 41: the mean of a mix is a real number, not a sentinel.
    const [row] = traceTable(
      [
        point("2026-11-22T03:00:00", 39, "low"),
        point("2026-11-22T03:05:00", 41),
        point("2026-11-22T03:10:00", 43),
      ],
      "mg/dL",
      "hour",
    );
    expect(row).toMatchObject({ lowest: "LOW", mean: "41", highest: "43" });
  });

  it("writes a whole mmol/L mean with its decimal, as every other mmol/L number", () => {
    const [row] = traceTable(
      [point("2026-11-22T03:00:00", 9.8), point("2026-11-22T03:05:00", 10.2)],
      "mmol/L",
      "hour",
    );
    expect(row).toMatchObject({ lowest: "9.8", mean: "10.0", highest: "10.2" });
  });

  it("shows a real reading that converts to LOW's mmol/L value as a number, and a LOW beside it as LOW", () => {
    // 40 mg/dL is in the measuring range and converts to 2.2 mmol/L, where a LOW sits on the chart too:
    // whether a point is LOW was decided in the data's unit and is carried by `sentinel`.
    const [real] = traceTable(
      [point("2026-11-22T03:00:00", 2.2), point("2026-11-22T03:05:00", 5)],
      "mmol/L",
      "hour",
    );
    expect(real).toMatchObject({ lowest: "2.2", highest: "5.0" });
    const [both] = traceTable(
      [point("2026-11-22T03:00:00", 2.2), point("2026-11-22T03:05:00", 2.2, "low")],
      "mmol/L",
      "hour",
    );
    // The mean of a LOW and a 40 mg/dL is below 40: it reads LOW, not LOW's edge value 2.2.
    expect(both).toMatchObject({ lowest: "LOW", mean: "LOW", highest: "2.2" });
    const [realOnly] = traceTable(
      [point("2026-11-22T03:00:00", 2.2), point("2026-11-22T03:05:00", 2.2)],
      "mmol/L",
      "hour",
    );
    expect(realOnly).toMatchObject({ lowest: "2.2", mean: "2.2", highest: "2.2" });
  });
});
