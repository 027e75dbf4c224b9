import { describe, expect, it } from "vitest";
import { replacesStored } from "./tokens";

describe("replacesStored: of two sign-ins of one account, the later authorization is kept", () => {
  const at = (iso: string) => new Date(iso);

  it("replaces an earlier authorization, and one of the same moment", () => {
    const stored = { authorizedAt: at("2026-03-01T10:00:00Z"), status: "active" as const };
    expect(replacesStored(stored, at("2026-03-01T10:00:01Z"))).toBe(true);
    expect(replacesStored(stored, at("2026-03-01T10:00:00Z"))).toBe(true);
  });

  it("keeps a later one that stored first", () => {
    const stored = { authorizedAt: at("2026-03-01T10:00:05Z"), status: "active" as const };
    expect(replacesStored(stored, at("2026-03-01T10:00:01Z"))).toBe(false);
  });

  it("replaces a later one the service refused since, and one stored before authorized_at existed", () => {
    const refused = { authorizedAt: at("2026-03-01T10:00:05Z"), status: "needs_reconnect" as const };
    expect(replacesStored(refused, at("2026-03-01T10:00:01Z"))).toBe(true);
    expect(replacesStored({ authorizedAt: null, status: "active" }, at("2020-01-01T00:00:00Z"))).toBe(true);
  });
});
