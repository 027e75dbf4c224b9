import { afterEach, describe, expect, it, vi } from "vitest";
import { CallBudgetExceeded } from "@/lib/service-client/call-budget";
import { WindowRefused } from "@/lib/service-client/client";
import { TokenRequestError } from "@/lib/service-client/oauth";
import { ReconnectRequired, TokenUnavailable } from "@/lib/service-client/tokens";
import { ServiceError } from "@/lib/service-client/transport";
import { serviceState } from "./service-state";

afterEach(() => vi.restoreAllMocks());

describe("serviceState: what a page shows for an error of its service calls", () => {
  it("a window the client refuses to ask for (the period before a chosen one starts in 1999) is a state, not a 500", () => {
    const e = new WindowRefused("Dates must lie between 2000-01-01T00:00:00 and 2099-12-31T23:59:59.");
    expect(serviceState(e)).toBe("refused");
  });

  it.each([
    ["a revoked authorization", new ReconnectRequired("c1"), "reconnect"],
    ["a spent call budget", new CallBudgetExceeded(120, 12), "busy"],
    [
      "a token that could not be renewed",
      new TokenUnavailable(new TokenRequestError("unavailable", 503, "unreachable")),
      "unavailable",
    ],
  ] as const)("%s: %s", (_, e, state) => {
    expect(serviceState(e)).toBe(state);
  });

  it("a failed service call: unavailable, logged for the operator", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(serviceState(new ServiceError("unavailable", 503, "The service answered 503."))).toBe(
      "unavailable",
    );
    expect(log).toHaveBeenCalledWith(expect.stringContaining("service call failed (unavailable, 503)"));
  });

  it("anything else is a bug and stays one", () => {
    expect(serviceState(new TypeError("x is undefined"))).toBeNull();
    expect(serviceState("thrown text")).toBeNull();
  });
});
