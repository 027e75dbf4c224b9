import { describe, expect, it } from "vitest";
import { CallBudget, CallBudgetExceeded } from "./call-budget";

const t0 = Date.UTC(2026, 10, 25, 9, 0, 0);

function refused(budget: CallBudget, user: string, nowMs: number): CallBudgetExceeded {
  try {
    budget.charge(user, nowMs);
  } catch (e) {
    if (e instanceof CallBudgetExceeded) return e;
    throw e;
  }
  throw new Error("the call was allowed");
}

describe("CallBudget", () => {
  it("allows the budget in a burst, then refuses until the first call leaves the window", () => {
    const budget = new CallBudget(3, 60_000);
    budget.charge("ann", t0);
    budget.charge("ann", t0 + 10_000);
    budget.charge("ann", t0 + 20_000);
    const e = refused(budget, "ann", t0 + 30_000);
    expect(e.retryAfterSeconds).toBe(30);
    expect(e.message).toContain("more than 3 reads in a minute");
    expect(budget.used("ann", t0 + 30_000)).toBe(3);
    // One millisecond before the first call is a minute old it still counts; then it does not.
    expect(refused(budget, "ann", t0 + 59_999).retryAfterSeconds).toBe(1);
    budget.charge("ann", t0 + 60_000);
    expect(budget.used("ann", t0 + 60_000)).toBe(3);
  });

  it("never lets more than the budget into any minute", () => {
    const budget = new CallBudget(5, 60_000);
    const allowed: number[] = [];
    for (let t = t0; t < t0 + 300_000; t += 1_700) {
      try {
        budget.charge("ann", t);
        allowed.push(t);
      } catch (e) {
        if (!(e instanceof CallBudgetExceeded)) throw e;
      }
    }
    for (const start of allowed) {
      expect(allowed.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(5);
    }
    expect(allowed.length).toBeGreaterThanOrEqual(25);
  });

  it("is recognised by its brand, as another bundle's copy of the class would be", () => {
    const copy = Object.assign(new Error("x"), {
      [Symbol.for("glucose-dashboard.CallBudgetExceeded")]: true,
    });
    expect(copy).toBeInstanceOf(CallBudgetExceeded);
    expect(new Error("x")).not.toBeInstanceOf(CallBudgetExceeded);
  });

  it("keeps each user's budget apart", () => {
    const budget = new CallBudget(1, 60_000);
    budget.charge("ann", t0);
    expect(() => budget.charge("ann", t0 + 1)).toThrow(CallBudgetExceeded);
    expect(() => budget.charge("bob", t0 + 1)).not.toThrow();
  });

  it("says whether a call is left without counting one", () => {
    const budget = new CallBudget(2, 60_000);
    expect(budget.refusal("ann", t0)).toBeNull();
    expect(budget.used("ann", t0)).toBe(0);
    budget.charge("ann", t0);
    budget.charge("ann", t0 + 15_000);
    const e = budget.refusal("ann", t0 + 20_000);
    expect(e).toBeInstanceOf(CallBudgetExceeded);
    expect(e?.retryAfterSeconds).toBe(40);
    expect(budget.used("ann", t0 + 20_000)).toBe(2);
    expect(budget.refusal("bob", t0 + 20_000)).toBeNull();
    expect(budget.refusal("ann", t0 + 60_000)).toBeNull();
  });

  it("a refused call is not counted", () => {
    const budget = new CallBudget(1, 60_000);
    budget.charge("ann", t0);
    for (let k = 1; k < 100; k++) refused(budget, "ann", t0 + k * 100);
    expect(() => budget.charge("ann", t0 + 60_000)).not.toThrow();
  });

  it("forgets users idle for a minute", () => {
    const budget = new CallBudget(2, 60_000);
    for (let k = 0; k < 999; k++) budget.charge(`user-${k}`, t0);
    expect(budget.users).toBe(999);
    budget.charge("late", t0 + 60_000);
    expect(budget.users).toBe(1);
  });
});
