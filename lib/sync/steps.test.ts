import { describe, expect, it } from "vitest";
import { fetchInSteps } from "./steps";

interface Part {
  rows: number[];
}

/** Windows w0…wn-1, window k holding `sizes[k]` rows numbered by window. */
async function steps(sizes: number[], maxRows: number) {
  const windows = sizes.map((n, k) => ({ k, endMs: (k + 1) * 1000, n }));
  const stored: { rows: number[]; endMs: number }[] = [];
  let inFlight = 0;
  let most = 0;
  await fetchInSteps(
    windows,
    { ahead: 2, maxRows },
    async (w) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      return { rows: Array.from({ length: w.n }, () => w.k) };
    },
    (parts: readonly Part[]) => ({ rows: parts.flatMap((p) => p.rows) }),
    async (step, endMs) => {
      stored.push({ rows: step.rows, endMs });
    },
  );
  return { stored, most };
}

describe("fetchInSteps", () => {
  it("gathers windows until a step holds maxRows, never splits one, and stores each step with its last window's end", async () => {
    const { stored, most } = await steps([3, 3, 3, 1, 5], 6);
    expect(stored).toEqual([
      { rows: [0, 0, 0, 1, 1, 1], endMs: 2000 },
      { rows: [2, 2, 2, 3, 4, 4, 4, 4, 4], endMs: 5000 },
    ]);
    expect(most).toBeLessThanOrEqual(2);
  });

  it("stores the last step even when it is empty, so the mark reaches the end", async () => {
    expect((await steps([0, 0, 0], 10)).stored).toEqual([{ rows: [], endMs: 3000 }]);
    expect((await steps([4, 0], 4)).stored).toEqual([
      { rows: [0, 0, 0, 0], endMs: 1000 },
      { rows: [], endMs: 2000 },
    ]);
  });

  it("stores the windows read before a failed read, then fails", async () => {
    const stored: { rows: number[]; endMs: number }[] = [];
    const windows = [0, 1, 2, 3].map((k) => ({ k, endMs: (k + 1) * 1000 }));
    await expect(
      fetchInSteps(
        windows,
        { ahead: 3, maxRows: 100 },
        async (w) => {
          if (w.k === 2) throw new Error("window 2 failed");
          return { rows: [w.k] };
        },
        (parts: readonly Part[]) => ({ rows: parts.flatMap((p) => p.rows) }),
        async (step, endMs) => {
          stored.push({ rows: step.rows, endMs });
        },
      ),
    ).rejects.toThrow("window 2 failed");
    expect(stored).toEqual([{ rows: [0, 1], endMs: 2000 }]);
  });

  it("does not store a step again when storing it failed", async () => {
    let stores = 0;
    await expect(
      fetchInSteps(
        [{ endMs: 1000 }, { endMs: 2000 }],
        { ahead: 2, maxRows: 1 },
        async () => ({ rows: [1] }),
        (parts: readonly Part[]) => ({ rows: parts.flatMap((p) => p.rows) }),
        async () => {
          stores++;
          throw new Error("lease lost");
        },
      ),
    ).rejects.toThrow("lease lost");
    expect(stores).toBe(1);
  });

  it("stores nothing for no windows", async () => {
    expect((await steps([], 10)).stored).toEqual([]);
  });
});
