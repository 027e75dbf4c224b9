import { describe, expect, it } from "vitest";
import {
  afterTransient,
  CLINIC_DAY_MAX_ATTEMPTS,
  GAVE_UP,
  IDLE_FIRST_MS,
  IDLE_MAX_MS,
  idleDelayMs,
  isExpired,
  packetExpiresAt,
} from "./policy";

describe("the clinic day's attempts", () => {
  it("tries an item again until its last attempt, then fails it with the reason in words", () => {
    for (let n = 1; n < CLINIC_DAY_MAX_ATTEMPTS; n++) expect(afterTransient(n)).toEqual({ kind: "wait" });
    expect(afterTransient(CLINIC_DAY_MAX_ATTEMPTS)).toEqual({ kind: "failed", reason: GAVE_UP });
    expect(afterTransient(CLINIC_DAY_MAX_ATTEMPTS + 3).kind).toBe("failed");
    expect(GAVE_UP).toMatch(/in 5 attempts.*Retry later\.$/);
  });
});

describe("the idle runner", () => {
  it("looks again after 5 s, doubling up to a minute, never sooner and never longer", () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(idleDelayMs)).toEqual([
      5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000,
    ]);
    expect(idleDelayMs(-1)).toBe(IDLE_FIRST_MS);
    expect(idleDelayMs(1e9)).toBe(IDLE_MAX_MS);
  });
});

describe("a packet's retention", () => {
  const last = new Date("2026-05-01T10:00:00Z");
  it("expires the given hours after its last patient finished, not while it is being prepared", () => {
    expect(packetExpiresAt(last, true, 72)?.toISOString()).toBe("2026-05-04T10:00:00.000Z");
    expect(packetExpiresAt(last, true, 0.5)?.toISOString()).toBe("2026-05-01T10:30:00.000Z");
    expect(packetExpiresAt(last, false, 72)).toBeNull();
    expect(packetExpiresAt(null, true, 72)).toBeNull();
  });
  it("is expired from that instant on", () => {
    const at = new Date("2026-05-04T10:00:00Z");
    expect(isExpired(at, new Date(at.getTime() - 1))).toBe(false);
    expect(isExpired(at, at)).toBe(true);
    expect(isExpired(null, at)).toBe(false);
  });
});
