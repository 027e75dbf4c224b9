import { describe, expect, it } from "vitest";
import { toReadings } from "./reading";
import type { EgvV1 } from "./schemas";

const egv = (
  systemTime: string,
  displayTime: string,
  value: number,
  status: EgvV1["status"] = null,
): EgvV1 => ({
  systemTime,
  displayTime,
  value,
  status,
  trend: "flat",
  trendRate: 0.1,
});

describe("toReadings", () => {
  it("reads each EGV once: instants, clock offset, sentinel, metric value, trend and rate as received", () => {
    const [r] = toReadings([egv("2026-01-10T17:00:00", "2026-01-10T12:00:40", 2.2, "low")], "mmol/L");
    expect(r).toEqual({
      t: Date.UTC(2026, 0, 10, 17),
      displayTime: "2026-01-10T12:00:40",
      displayMs: Date.UTC(2026, 0, 10, 12, 0, 40),
      offsetMinutes: -300,
      value: 2.2,
      sentinel: "low",
      // The sentinel counts as 39 in metrics, not 2.2 mmol/L converted (39.6).
      mgdl: 39,
      trend: "flat",
      rate: 0.1,
    });
  });

  it("keeps the order received and leaves out records whose value or times cannot be read", () => {
    const readings = toReadings(
      [
        egv("2026-01-10T17:05:00", "2026-01-10T12:05:00", 10.0),
        egv("2026-02-30T17:00:00", "2026-01-10T12:00:00", 100),
        { ...egv("2026-01-10T17:00:00", "2026-01-10T12:00:00", 100), value: Number.NaN },
        egv("2026-01-10T16:55:00", "2026-01-10T11:55:00", 401, "high"),
      ],
      "mmol/L",
    );
    expect(readings.map((r) => [r.displayTime, r.sentinel, r.mgdl])).toEqual([
      ["2026-01-10T12:05:00", null, 180],
      ["2026-01-10T11:55:00", "high", 401],
    ]);
  });
});
