import { describe, expect, it } from "vitest";
import { deviceModelSchema } from "@/lib/cgm";
import { findSandboxUser, SANDBOX_USERS } from "../users";

describe("sandbox users", () => {
  it("eight users, SandboxUser1 … SandboxUser8, with the devices the brief names", () => {
    expect(SANDBOX_USERS.map((u) => u.username)).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `SandboxUser${i}`),
    );
    const summary = SANDBOX_USERS.map((u) => [u.generation, u.displayDevice, u.unit, u.model]);
    expect(summary).toEqual([
      ["g7", "iOS", "mg/dL", "Unknown"],
      ["g6", "android", "mg/dL", "Unknown"],
      ["g5", "iOS", "mmol/L", "G5 Mobile App"],
      ["g4", "receiver", "mg/dL", "G4 with Sharing Receiver"],
      ["g6", "iOS", "mg/dL", "Unknown"],
      ["g7", "iOS", "mmol/L", "Unknown"],
      ["g7", "android", "mg/dL", "Unknown"],
      ["g7", "iOS", "mmol/L", "Unknown"],
    ]);
    expect(SANDBOX_USERS.map((u) => [u.device.transmitterGeneration, u.device.variant])).toEqual([
      ["g7", "g7"],
      ["g6", "g6"],
      ["g5", null],
      ["g4", null],
      ["g6", "g6"],
      ["g7", "g7"],
      ["g715day", "g715day"],
      ["g7", "d1+"],
    ]);
    // Notes §1.1: G7 15-day and ONE+ data only through v3.
    expect(SANDBOX_USERS.filter((u) => !u.servedBeforeV3).map((u) => u.username)).toEqual([
      "SandboxUser7",
      "SandboxUser8",
    ]);
    for (const u of SANDBOX_USERS) {
      deviceModelSchema.parse(u.model);
      expect(u.description.length).toBeGreaterThan(20);
      expect(u.description).not.toContain("\n");
      expect(() => new Intl.DateTimeFormat("en-US", { timeZone: u.homeTimeZone })).not.toThrow();
    }
    expect(SANDBOX_USERS.filter((u) => !u.hasData).map((u) => u.username)).toEqual(["SandboxUser6"]);
  });

  it("findSandboxUser finds by name (case-insensitive) and refuses others", () => {
    expect(findSandboxUser("SandboxUser3")?.username).toBe("SandboxUser3");
    expect(findSandboxUser("sandboxuser3")?.username).toBe("SandboxUser3");
    expect(findSandboxUser("SandboxUser9")).toBeNull();
    expect(findSandboxUser("")).toBeNull();
  });
});
