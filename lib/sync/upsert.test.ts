import { describe, expect, it } from "vitest";
import { arrayLiteral } from "./upsert";

describe("arrayLiteral", () => {
  it("quotes text and escapes only quotes and backslashes", () => {
    expect(arrayLiteral(["a", 'say "hi"', "back\\slash", "a,b {c}", "NULL", ""])).toBe(
      '{"a","say \\"hi\\"","back\\\\slash","a,b {c}","NULL",""}',
    );
  });

  it("writes null and undefined as NULL, numbers and dates bare, objects as quoted JSON", () => {
    expect(
      arrayLiteral([null, undefined, 5.6, -0.25, 1e21, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), { a: '"' }]),
    ).toBe('{NULL,NULL,5.6,-0.25,1e+21,2026-01-02T03:04:05.000Z,"{\\"a\\":\\"\\\\\\"\\"}"}');
  });

  it("is an empty literal for no values", () => {
    expect(arrayLiteral([])).toBe("{}");
  });
});
