import { describe, expect, it } from "vitest";
import { claimQueue } from "./claim-queue";

describe("claimQueue", () => {
  it("hands out each leased item once, leasing again only when the batch is used up", async () => {
    const batches = [["a", "b"], ["c"], []];
    let leases = 0;
    const next = claimQueue(async () => batches[leases++] ?? []);
    expect(await next()).toBe("a");
    expect(leases).toBe(1);
    expect(await next()).toBe("b");
    expect(await next()).toBe("c");
    expect(leases).toBe(2);
    expect(await next()).toBeNull();
    expect(await next()).toBeNull();
    // Once a lease came back empty, nothing more is leased.
    expect(leases).toBe(3);
  });

  it("lets callers waiting together share one lease", async () => {
    let leases = 0;
    let release: (items: number[]) => void = () => {};
    const next = claimQueue(() => {
      leases++;
      return new Promise<number[]>((resolve) => {
        release = resolve;
      });
    });
    const waiting = [next(), next(), next()];
    expect(leases).toBe(1);
    release([1, 2]);
    // Two callers get the two items; the third waits for the next lease, which finds nothing.
    await Promise.resolve();
    setTimeout(() => release([]), 0);
    expect((await Promise.all(waiting)).sort()).toEqual([1, 2, null]);
    expect(leases).toBe(2);
  });

  it("passes a failed lease to every caller waiting on it", async () => {
    const next = claimQueue<string>(() => Promise.reject(new Error("database down")));
    await expect(Promise.all([next(), next()])).rejects.toThrow("database down");
  });
});
