import { describe, expect, it } from "vitest";
import { clientAddress, combine, LIMITS, limitDecision, WINDOW_MS, waitInWords } from "./rate-limit";

const now = new Date("2026-03-01T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const minutes = (m: number) => m * 60_000;

describe("limitDecision", () => {
  it("lets the 5th attempt through after 4 failures, refuses the 6th after 5", () => {
    const four = [1, 2, 3, 4].map((m) => ago(minutes(m)));
    expect(limitDecision(four, now, LIMITS.email)).toEqual({ limited: false });
    const five = [...four, ago(minutes(5))];
    expect(limitDecision(five, now, LIMITS.email)).toEqual({ limited: true, retryAfterS: 10 * 60 });
  });

  it("slides: failures older than 15 minutes no longer count", () => {
    const old = [16, 17, 18, 19, 20].map((m) => ago(minutes(m)));
    expect(limitDecision(old, now, 5)).toEqual({ limited: false });
    expect(limitDecision([...old.slice(1), ago(WINDOW_MS)], now, 5)).toEqual({ limited: false });
  });

  it("waits until just enough failures have left the window", () => {
    // 7 failures, limit 5: three must leave, so the wait ends when the 3rd oldest does.
    const failures = [14, 13, 12, 3, 2, 1, 0.5].map((m) => ago(minutes(m)));
    expect(limitDecision(failures, now, 5)).toEqual({ limited: true, retryAfterS: 3 * 60 });
  });

  it("never says to wait less than a second, and ignores failures in the future", () => {
    const failures = Array.from({ length: 5 }, () => ago(WINDOW_MS - 100));
    expect(limitDecision(failures, now, 5)).toEqual({ limited: true, retryAfterS: 1 });
    expect(limitDecision([new Date(now.getTime() + 1000)], now, 1)).toEqual({ limited: false });
  });

  it("holds 20 failures per address", () => {
    const failures = Array.from({ length: 20 }, (_, i) => ago(i * 1000));
    expect(limitDecision(failures.slice(1), now, LIMITS.ip).limited).toBe(false);
    expect(limitDecision(failures, now, LIMITS.ip)).toEqual({ limited: true, retryAfterS: 15 * 60 - 19 });
  });
});

describe("combine", () => {
  it("keeps the longest wait of the refusals", () => {
    expect(combine([{ limited: false }, { limited: false }])).toEqual({ limited: false });
    expect(
      combine([{ limited: true, retryAfterS: 30 }, { limited: false }, { limited: true, retryAfterS: 90 }]),
    ).toEqual({ limited: true, retryAfterS: 90 });
  });
});

describe("waitInWords", () => {
  it.each([
    [1, "in 1 second"],
    [45, "in 45 seconds"],
    [60, "in 1 minute"],
    [61, "in 2 minutes"],
    [900, "in 15 minutes"],
  ])("%i s: %s", (s, words) => expect(waitInWords(s)).toBe(words));
});

describe("clientAddress", () => {
  it("takes the entry the nearest proxy added", () => {
    expect(clientAddress("203.0.113.9, 10.0.0.2")).toBe("10.0.0.2");
    expect(clientAddress("::1")).toBe("::1");
    expect(clientAddress(null)).toBe("unknown");
    expect(clientAddress("x".repeat(100))).toBe("unknown");
  });
});
