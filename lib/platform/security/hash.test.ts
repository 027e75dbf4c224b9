import { describe, expect, it } from "vitest";
import { sha256Base64url, sha256Hex } from "./hash";

describe("sha256", () => {
  it("gives the standard digest of a text, in hex or base64url", () => {
    // The SHA-256 test vector of "abc" (FIPS 180-2).
    const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    expect(sha256Hex("abc")).toBe(abc);
    expect(sha256Base64url("abc")).toBe(Buffer.from(abc, "hex").toString("base64url"));
  });

  it("has no padding or URL-unsafe characters in base64url", () => {
    for (const text of ["", "a", "token", "ü".repeat(33)])
      expect(sha256Base64url(text)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
