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
});
