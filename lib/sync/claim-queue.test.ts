import { describe, expect, it } from "vitest";
import { claimQueue } from "./claim-queue";

/** A lease over `items` that records how many each lease asked for. */
function leaser(items: string[]) {
  const asked: number[] = [];
  const lease = async (count: number) => {
    asked.push(count);
    return items.splice(0, count);
  };
  return { asked, lease };
}

describe("claimQueue", () => {
  it("leases as many as callers wait together, one lease for all of them", async () => {
    const { asked, lease } = leaser(["a", "b", "c", "d", "e"]);
    const next = claimQueue(lease);
    expect((await Promise.all([next(), next(), next()])).sort()).toEqual(["a", "b", "c"]);
    expect(asked).toEqual([3]);
  });

  it("never leases an item no caller starts on at once: one caller free, one item leased", async () => {
    const { asked, lease } = leaser(["a", "b", "c", "d"]);
    const next = claimQueue(lease);
    await Promise.all([next(), next()]);
    // One of the two comes free while the other still works: it leases one, not a batch that
    // would wait in the queue, leased, until the other is done.
    expect(await next()).toBe("c");
    expect(asked).toEqual([2, 1]);
    expect(await next()).toBe("d");
    expect(asked).toEqual([2, 1, 1]);
  });

  it("ends once a lease comes back with fewer than asked, without leasing again", async () => {
    const { asked, lease } = leaser(["a"]);
    const next = claimQueue(lease);
    expect((await Promise.all([next(), next()])).sort()).toEqual(["a", null]);
    expect(await next()).toBeNull();
    expect(asked).toEqual([2]);
  });

  it("passes a failed lease to every caller waiting on it", async () => {
    const next = claimQueue<string>(() => Promise.reject(new Error("database down")));
    await expect(Promise.all([next(), next()])).rejects.toThrow("database down");
  });
});
