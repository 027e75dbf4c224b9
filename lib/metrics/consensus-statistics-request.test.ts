import { describe, expect, it } from "vitest";
import { consensusStatisticsRequest } from "./consensus-statistics-request";

describe("consensusStatisticsRequest", () => {
  it("asks for 54/70/180 mg/dL over the whole day, and 3.0/3.9/10.0 for mmol/L data", () => {
    const bounds = (unit: "mg/dL" | "mmol/L") => {
      const [range] = consensusStatisticsRequest(unit).targetRanges;
      expect(range).toMatchObject({ startTime: "00:00:00", endTime: "00:00:00" });
      return range!.egvRanges.map((r) => r.bound);
    };
    expect(bounds("mg/dL")).toEqual([54, 70, 180]);
    expect(bounds("mmol/L")).toEqual([3, 3.9, 10]);
  });
});
