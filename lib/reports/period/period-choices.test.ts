import { describe, expect, it } from "vitest";
import { daysChoices, periodChoices } from "./period-choices";

describe("periodChoices", () => {
  it("offers 7, 14, 30 and 90 days, the current one marked, each at its own address", () => {
    expect(periodChoices(30, (d) => `/p?days=${d}`)).toEqual([
      { href: "/p?days=7", label: "7 days", current: false },
      { href: "/p?days=14", label: "14 days", current: false },
      { href: "/p?days=30", label: "30 days", current: true },
      { href: "/p?days=90", label: "90 days", current: false },
    ]);
  });

  it("marks none when the page shows its own dates", () => {
    expect(periodChoices(null, String).some((c) => c.current)).toBe(false);
  });
});

describe("daysChoices", () => {
  it("leads to ?days=N, and to the plain address for the default 14 days", () => {
    expect(daysChoices("/p", 7).map((c) => [c.href, c.current])).toEqual([
      ["/p?days=7", true],
      ["/p", false],
      ["/p?days=30", false],
      ["/p?days=90", false],
    ]);
  });
});
