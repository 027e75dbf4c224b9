import { describe, expect, it } from "vitest";
import { splitAtGaps, withGapBreaks } from "./gaps";

const MIN = 60_000;
const at = (...minutes: number[]) => minutes.map((m) => ({ t: m * MIN, value: 100 + m }));

describe("splitAtGaps", () => {
  it("cuts where neighbours are more than 15 minutes apart, not at exactly 15", () => {
    const segments = splitAtGaps(at(0, 5, 10, 30, 35, 50));
    expect(segments.map((s) => s.map((p) => p.t / MIN))).toEqual([
      [0, 5, 10],
      [30, 35, 50],
    ]);
  });

  it("takes another gap length, and gives no segment for no points", () => {
    expect(splitAtGaps(at(0, 5, 10, 30), 4 * MIN)).toHaveLength(4);
    expect(splitAtGaps([])).toEqual([]);
    expect(splitAtGaps(at(7))).toEqual([at(7)]);
  });
});

describe("withGapBreaks", () => {
  it("puts one null point in the middle of each gap and nowhere else", () => {
    const out = withGapBreaks(at(0, 5, 10, 30, 35, 50, 90));
    expect(out.map((p) => [p.t / MIN, p.value])).toEqual([
      [0, 100],
      [5, 105],
      [10, 110],
      [20, null],
      [30, 130],
      [35, 135],
      [50, 150],
      [70, null],
      [90, 190],
    ]);
  });

  it("leaves gapless data as it is", () => {
    const points = at(0, 5, 10, 15);
    expect(withGapBreaks(points)).toEqual(points);
    expect(withGapBreaks([])).toEqual([]);
  });
});
