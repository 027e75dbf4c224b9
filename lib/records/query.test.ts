import { describe, expect, it } from "vitest";
import { firstParam, hrefWith } from "./query";

describe("firstParam", () => {
  it("takes a single value or the first of many", () => {
    expect(firstParam("x")).toBe("x");
    expect(firstParam(["a", "b"])).toBe("a");
    expect(firstParam([])).toBeUndefined();
    expect(firstParam(undefined)).toBeUndefined();
  });
});

describe("hrefWith", () => {
  const defaults = { days: "14", type: "all", deleted: "hide" };

  it("keeps the other choices and leaves defaults out", () => {
    expect(hrefWith("/dashboard/events", defaults, { type: "insulin" }, defaults)).toBe(
      "/dashboard/events?type=insulin",
    );
    expect(
      hrefWith(
        "/dashboard/events",
        { days: "30", type: "all", deleted: "hide" },
        { deleted: "show" },
        defaults,
      ),
    ).toBe("/dashboard/events?days=30&deleted=show");
  });

  it("gives the plain path when every choice is its default", () => {
    expect(hrefWith("/dashboard/events", { days: "30", type: "all" }, { days: "14" }, defaults)).toBe(
      "/dashboard/events",
    );
  });

  it("encodes values", () => {
    expect(hrefWith("/p", {}, { q: "a b&c" })).toBe("/p?q=a+b%26c");
  });
});
