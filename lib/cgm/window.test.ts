import { describe, expect, it } from "vitest";
import { readWindow, windowOf } from "./window";

const START = Date.UTC(2026, 0, 10, 12);
const END = Date.UTC(2026, 0, 11, 12);

describe("Window", () => {
  it("windowOf writes both ends as the service's DateTimes once", () => {
    expect(windowOf(START, END)).toEqual({
      startMs: START,
      endMs: END,
      startDate: "2026-01-10T12:00:00",
      endDate: "2026-01-11T12:00:00",
    });
  });

  it("readWindow keeps a Window as it is and reads text once", () => {
    const w = windowOf(START, END);
    expect(readWindow(w)).toBe(w);
    expect(readWindow({ startDate: w.startDate, endDate: w.endDate })).toEqual(w);
  });

  it("readWindow is null for a DateTime that does not parse", () => {
    expect(readWindow({ startDate: "2026-02-30T00:00:00", endDate: "2026-03-01T00:00:00" })).toBeNull();
  });
});
