import { describe, expect, it } from "vitest";
import { decodeNotice, encodeNotice } from "./notice";

describe("the clinic page's one-time notice", () => {
  it("carries an invitation's id and token, or the demo password, and back", () => {
    const invitation = {
      kind: "invitation",
      id: "0b5c7f9e-1d2a-4b3c-8d4e-5f6a7b8c9d0e",
      token: "AbC_-123",
    } as const;
    expect(decodeNotice(encodeNotice(invitation))).toEqual(invitation);
    const patient = { ...invitation, kind: "patient" } as const;
    expect(decodeNotice(encodeNotice(patient))).toEqual(patient);
    expect(decodeNotice(encodeNotice({ kind: "demo", password: "x_Y-9" }))).toEqual({
      kind: "demo",
      password: "x_Y-9",
    });
  });

  it("ignores anything else a cookie could hold", () => {
    for (const value of [
      undefined,
      "",
      "i.only-id",
      "d.a.b",
      "x.a.b",
      "i.a.b.c",
      "p.only-id",
      "d.<script>",
      "i.a.b c",
    ]) {
      expect(decodeNotice(value)).toBeNull();
    }
  });
});
