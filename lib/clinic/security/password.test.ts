import { describe, expect, it } from "vitest";
import { dummyHash, hashPassword, verifyPassword } from "./password";

describe("password hashing", () => {
  it("stores scrypt with its parameters, a 16-byte salt and a 32-byte key", async () => {
    const stored = await hashPassword("correct horse battery");
    const [scheme, params, salt, key] = stored.split("$");
    expect(scheme).toBe("scrypt");
    expect(params).toBe("N=32768,r=8,p=1");
    expect(Buffer.from(salt ?? "", "base64url")).toHaveLength(16);
    expect(Buffer.from(key ?? "", "base64url")).toHaveLength(32);
  });

  it("salts: the same password hashes differently each time", async () => {
    expect(await hashPassword("same password 1")).not.toBe(await hashPassword("same password 1"));
  });

  it("verifies the right password and refuses a wrong one", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("verifies with the parameters the hash names (a later increase keeps old hashes valid)", async () => {
    const stored = await hashPassword("correct horse battery");
    const { scryptSync } = await import("node:crypto");
    const salt = Buffer.from(stored.split("$")[2] ?? "", "base64url");
    const key = scryptSync("correct horse battery", salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const older = `scrypt$N=16384,r=8,p=1$${salt.toString("base64url")}$${key.toString("base64url")}`;
    expect(await verifyPassword("correct horse battery", older)).toBe(true);
  });

  it("refuses malformed or unreasonable stored values instead of throwing", async () => {
    for (const stored of [
      "",
      "plain",
      "scrypt$N=32768,r=8,p=1$$",
      "scrypt$N=1000,r=8,p=1$AAAA$AAAA",
      "scrypt$N=1073741824,r=8,p=1$AAAA$AAAA",
      "bcrypt$2b$10$abc",
    ]) {
      expect(await verifyPassword("anything at all", stored)).toBe(false);
    }
  });

  it("normalizes Unicode, so the same password typed on another keyboard still matches", async () => {
    const stored = await hashPassword("caf\u00e9 au lait 42");
    expect(await verifyPassword("cafe\u0301 au lait 42", stored)).toBe(true);
  });

  it("has a dummy hash that no password is known to match", async () => {
    const dummy = await dummyHash();
    expect(dummy).toBe(await dummyHash());
    expect(await verifyPassword("", dummy)).toBe(false);
  });
});
