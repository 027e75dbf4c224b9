import { describe, expect, it } from "vitest";
import { ownPath } from "./return-path";

describe("ownPath within a prefix", () => {
  it.each([
    "/sandbox/%2e%2e/dashboard",
    "/sandbox/../api/auth/signout",
    "/sandboxed/permissions",
    "/sandbox/.%2e//evil.example",
    "/dashboard",
  ])("refuses %s, which is not below /sandbox once normalised", (value) => {
    expect(ownPath(value, { within: "/sandbox" })).toBeNull();
  });

  it.each([
    ["/sandbox", "/sandbox"],
    ["/sandbox/permissions", "/sandbox/permissions"],
    ["/sandbox/v3/../permissions", "/sandbox/permissions"],
    ["/sandbox?x=1", "/sandbox?x=1"],
  ])("keeps %s as %s", (value, path) => {
    expect(ownPath(value, { within: "/sandbox" })).toBe(path);
  });
});
