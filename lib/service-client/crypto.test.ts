import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { serviceUserHash } from "./crypto";

describe("serviceUserHash", () => {
  const key = randomBytes(32);
  const userId = "3f2b9c1e-7a44-4d0b-9e55-0c6f1a2b3c4d";

  it("is the same for the same userId, so a sign-in finds its account again", () => {
    expect(serviceUserHash(userId, key)).toBe(serviceUserHash(userId, key));
    expect(serviceUserHash(userId, key)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("tells different userIds apart, and reveals nothing of the userId", () => {
    expect(serviceUserHash(`${userId.slice(0, -1)}e`, key)).not.toBe(serviceUserHash(userId, key));
    expect(serviceUserHash(userId, key)).not.toContain(userId.slice(0, 8));
  });

  it("depends on the key: without the app's secret a guessed userId cannot be confirmed", () => {
    expect(serviceUserHash(userId, randomBytes(32))).not.toBe(serviceUserHash(userId, key));
  });

  it("is not the plain SHA-256 anyone could recompute from a guessed userId", () => {
    expect(serviceUserHash(userId, key)).not.toBe(createHash("sha256").update(userId).digest("base64url"));
  });
});
