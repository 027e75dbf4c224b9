import { describe, expect, it } from "vitest";
import { currentCallContext, withCallContext, withCallGate } from "./call-gate";

describe("call contexts", () => {
  it("give the calls inside them their gate and signal, and nothing outside", async () => {
    const gate = async () => {};
    const signal = new AbortController().signal;
    expect(currentCallContext()).toEqual({});
    await withCallContext({ gate, signal }, async () => {
      await Promise.resolve();
      expect(currentCallContext()).toEqual({ gate, signal });
    });
    expect(currentCallContext()).toEqual({});
  });

  it("a sync started inside a request answers to its own gate only, never the request's budget or signal", async () => {
    const budget = async () => {};
    const paced = async () => {};
    const signal = new AbortController().signal;
    await withCallContext({ gate: budget, signal }, async () => {
      await withCallGate(paced, async () => expect(currentCallContext()).toEqual({ gate: paced }));
      await withCallGate(null, async () => expect(currentCallContext()).toEqual({}));
    });
  });
});
