import { describe, expect, it } from "vitest";
import {
  collectGarbageWhenIdle,
  GROWTH_WORTH_COLLECTING_BYTES,
  IDLE_CHECK_MS,
  IDLE_UTILISATION,
  idleAction,
  QUIET_CHECKS,
  quietChecksAfter,
} from "./idle-gc";

const MB = 1024 * 1024;
const grown = { heapUsed: 300 * MB, heapAfterLastCollection: 80 * MB };

describe("collecting garbage when idle", () => {
  it("collects once the process has been quiet for a few checks and its heap has grown", () => {
    expect(idleAction({ quietChecks: QUIET_CHECKS, ...grown, settlePending: false })).toBe("collect");
  });

  it("never while requests are being served, however large the heap", () => {
    const quiet = quietChecksAfter(QUIET_CHECKS, IDLE_UTILISATION);
    expect(quiet).toBe(0);
    expect(
      idleAction({
        quietChecks: quiet,
        heapUsed: 900 * MB,
        heapAfterLastCollection: 80 * MB,
        settlePending: true,
      }),
    ).toBe(null);
  });

  it("not in a pause between a page's requests: the quiet must last QUIET_CHECKS checks in a row", () => {
    let quiet = 0;
    for (const utilisation of [0.001, 0.001, 0.4, 0.001, 0.001]) quiet = quietChecksAfter(quiet, utilisation);
    expect(quiet).toBe(QUIET_CHECKS - 1);
    expect(idleAction({ quietChecks: quiet, ...grown, settlePending: false })).toBe(null);
    quiet = quietChecksAfter(quiet, 0.001);
    expect(idleAction({ quietChecks: quiet, ...grown, settlePending: false })).toBe("collect");
  });

  it("not again while the heap has hardly grown since the last collection", () => {
    const after = 80 * MB;
    const sample = (heapUsed: number) => ({
      quietChecks: QUIET_CHECKS,
      heapUsed,
      heapAfterLastCollection: after,
      settlePending: false,
    });
    expect(idleAction(sample(after + GROWTH_WORTH_COLLECTING_BYTES - 1))).toBe(null);
    expect(idleAction(sample(after + GROWTH_WORTH_COLLECTING_BYTES))).toBe("collect");
  });

  it("settles a collection once, after quiet checks counted afresh", () => {
    const collected = { heapUsed: 81 * MB, heapAfterLastCollection: 80 * MB };
    expect(idleAction({ quietChecks: QUIET_CHECKS - 1, ...collected, settlePending: true })).toBe(null);
    expect(idleAction({ quietChecks: QUIET_CHECKS, ...collected, settlePending: true })).toBe("settle");
    expect(idleAction({ quietChecks: QUIET_CHECKS + 5, ...collected, settlePending: false })).toBe(null);
  });

  it("collects within 5 s of a burst's end, and settles after it", async () => {
    let heap = 80 * MB;
    const collectedAt: number[] = [];
    const startedMs = Date.now();
    const stop = collectGarbageWhenIdle({
      heapUsed: () => heap,
      collect: () => {
        collectedAt.push(Date.now() - startedMs);
        heap = 80 * MB;
      },
    });
    try {
      // A burst of views grew the heap; from here the event loop is quiet. bench part `startup`
      // reads memory 10 s after the last view, and V8 gives pages back after a collection.
      heap = 300 * MB;
      while (collectedAt.length < 2 && Date.now() - startedMs < 12_000) {
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(collectedAt).toHaveLength(2);
      const [collect = 0, settle = 0] = collectedAt;
      expect(collect).toBeGreaterThanOrEqual(QUIET_CHECKS * IDLE_CHECK_MS - 50);
      expect(collect).toBeLessThan(5_000);
      expect(settle - collect).toBeGreaterThanOrEqual(QUIET_CHECKS * IDLE_CHECK_MS - 50);
      // Collected and settled, the heap not grown: nothing more.
      await new Promise((r) => setTimeout(r, IDLE_CHECK_MS * 1.5));
      expect(collectedAt).toHaveLength(2);
    } finally {
      stop();
    }
  });
});
