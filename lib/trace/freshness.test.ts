import { describe, expect, it } from "vitest";
import { agedFreshness, dataFreshness, describeAge } from "./freshness";

const MIN = 60_000;
const NOW = Date.UTC(2026, 0, 10, 12);

describe("dataFreshness", () => {
  it("is stale only past the expected delay plus 15 minutes", () => {
    expect(dataFreshness(NOW - 75 * MIN, NOW, 60)).toEqual({
      ageMinutes: 75,
      stale: false,
      expectedDelayMinutes: 60,
    });
    expect(dataFreshness(NOW - 76 * MIN, NOW, 60)).toEqual({
      ageMinutes: 76,
      stale: true,
      expectedDelayMinutes: 60,
    });
    expect(dataFreshness(NOW - 16 * MIN, NOW, 0).stale).toBe(true);
  });

  it("counts whole minutes and never a negative age", () => {
    expect(dataFreshness(NOW - 4 * MIN - 59_000, NOW, 0).ageMinutes).toBe(4);
    expect(dataFreshness(NOW + 2 * MIN, NOW, 0)).toEqual({
      ageMinutes: 0,
      stale: false,
      expectedDelayMinutes: 0,
    });
  });
});

describe("agedFreshness", () => {
  it("adds the whole minutes elapsed since the server computed the age", () => {
    const fresh = dataFreshness(NOW - 3 * MIN, NOW, 0);
    expect(agedFreshness(fresh, 0)).toEqual(fresh);
    expect(agedFreshness(fresh, 59_999)).toEqual(fresh);
    expect(agedFreshness(fresh, 12 * MIN)).toEqual({ ageMinutes: 15, stale: false, expectedDelayMinutes: 0 });
    expect(agedFreshness(fresh, 13 * MIN)).toEqual({ ageMinutes: 16, stale: true, expectedDelayMinutes: 0 });
  });

  it("keeps the service's delay in the rule and never goes back in time", () => {
    const delayed = dataFreshness(NOW - 170 * MIN, NOW, 180);
    expect(agedFreshness(delayed, 25 * MIN).stale).toBe(false);
    expect(agedFreshness(delayed, 26 * MIN).stale).toBe(true);
    expect(agedFreshness(delayed, -5 * MIN)).toEqual(delayed);
  });
});

describe("describeAge", () => {
  it("uses minutes, hours and minutes, or days", () => {
    expect(describeAge(0)).toBe("just now");
    expect(describeAge(0.9)).toBe("just now");
    expect(describeAge(1)).toBe("1 min ago");
    expect(describeAge(4)).toBe("4 min ago");
    expect(describeAge(59)).toBe("59 min ago");
    expect(describeAge(60)).toBe("1 h ago");
    expect(describeAge(125)).toBe("2 h 5 min ago");
    expect(describeAge(1_439)).toBe("23 h 59 min ago");
    expect(describeAge(1_440)).toBe("1 day ago");
    expect(describeAge(3 * 1_440 + 600)).toBe("3 days ago");
  });
});
