import { describe, expect, it } from "vitest";
import { TokenRequestError } from "./oauth";
import { ReconnectRequired, TokenUnavailable } from "./tokens";

/**
 * Next bundles the token module once per layer, and a page can await a refresh a route handler
 * started: the error it receives was made by the other copy's class. Recognising it must not
 * depend on which copy made it.
 */
describe("token errors across module copies", () => {
  it("recognises a ReconnectRequired made by another copy of the class", () => {
    // Another bundle's copy: a different class, the same registered brand.
    const brand: unique symbol = Symbol.for("glucose-dashboard.ReconnectRequired");
    class OtherCopy extends Error {
      readonly [brand] = true;
    }
    const fromElsewhere = new OtherCopy("c1");
    expect(fromElsewhere instanceof ReconnectRequired).toBe(true);
    expect(fromElsewhere instanceof TokenUnavailable).toBe(false);
  });

  it("tells the two errors and plain errors apart", () => {
    const reconnect = new ReconnectRequired("c1");
    const unavailable = new TokenUnavailable(new TokenRequestError("unavailable", 503, "down"));
    expect(reconnect instanceof ReconnectRequired).toBe(true);
    expect(reconnect instanceof TokenUnavailable).toBe(false);
    expect(unavailable instanceof TokenUnavailable).toBe(true);
    expect(unavailable instanceof ReconnectRequired).toBe(false);
    expect(new Error("x") instanceof ReconnectRequired).toBe(false);
    expect((null as unknown) instanceof ReconnectRequired).toBe(false);
    expect(reconnect.connectionId).toBe("c1");
    expect(reconnect).toBeInstanceOf(Error);
  });
});
