import { describe, expect, it } from "vitest";
import { Lru } from "./lru";

describe("Lru", () => {
  it("keeps at most `capacity` entries, evicting the least recently used", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1); // a is now the most recent
    lru.set("c", 3);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe(1);
    expect(lru.get("c")).toBe(3);
    expect(lru.size).toBe(2);
  });

  it("with a budget, keeps the total weight within it, evicting the eldest first", () => {
    const lru = new Lru<string, string>(100, { maxWeight: 10, weigh: (s) => s.length });
    lru.set("a", "xxxx");
    lru.set("b", "xxxx");
    expect(lru.weight).toBe(8);
    lru.set("c", "xxxx"); // 12 > 10: a goes
    expect(lru.get("a")).toBeUndefined();
    expect(lru.weight).toBe(8);
    lru.get("b"); // b is now the most recent: c goes next
    lru.set("d", "xxxxxx");
    expect(lru.get("c")).toBeUndefined();
    expect(lru.get("b")).toBe("xxxx");
    expect(lru.weight).toBe(10);
  });

  it("replacing an entry counts its new weight only, and an entry over the whole budget is not kept", () => {
    const lru = new Lru<string, string>(100, { maxWeight: 10, weigh: (s) => s.length });
    lru.set("a", "xxxxxx");
    lru.set("a", "xx");
    expect(lru.weight).toBe(2);
    lru.set("big", "x".repeat(11));
    expect(lru.get("big")).toBeUndefined();
    expect(lru.get("a")).toBe("xx");
    expect(lru.weight).toBe(2);
  });
});
