import { describe, expect, it } from "vitest";
import { GROWTH_WORTH_COLLECTING_BYTES, IDLE_UTILISATION, shouldCollect } from "./idle-gc";

const MB = 1024 * 1024;

describe("collecting garbage when idle", () => {
  it("collects once the process is idle and its heap has grown since the last collection", () => {
    expect(shouldCollect({ utilisation: 0.001, heapUsed: 300 * MB, heapAfterLastCollection: 80 * MB })).toBe(
      true,
    );
  });

  it("never while requests are being served, however large the heap", () => {
    expect(
      shouldCollect({ utilisation: IDLE_UTILISATION, heapUsed: 900 * MB, heapAfterLastCollection: 80 * MB }),
    ).toBe(false);
    expect(shouldCollect({ utilisation: 0.4, heapUsed: 900 * MB, heapAfterLastCollection: 80 * MB })).toBe(
      false,
    );
  });

  it("not again while the heap has hardly grown since the last collection", () => {
    const after = 80 * MB;
    expect(
      shouldCollect({
        utilisation: 0,
        heapUsed: after + GROWTH_WORTH_COLLECTING_BYTES - 1,
        heapAfterLastCollection: after,
      }),
    ).toBe(false);
    expect(
      shouldCollect({
        utilisation: 0,
        heapUsed: after + GROWTH_WORTH_COLLECTING_BYTES,
        heapAfterLastCollection: after,
      }),
    ).toBe(true);
  });
});
