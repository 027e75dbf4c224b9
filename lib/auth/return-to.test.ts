import { describe, expect, it } from "vitest";
import { DEFAULT_RETURN_TO, safeReturnTo } from "./return-to";

describe("safeReturnTo", () => {
  it.each([
    "//evil.example",
    "//evil.example/path",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example",
    "http:evil.example",
    "javascript:alert(1)",
    "evil.example",
    "/\tevil",
    "/%0a",
    // Each of these normalises to "//evil.example": refused after normalisation, not before.
    "/.//evil.example",
    "/%2e//evil.example",
    "/%2E//evil.example",
    "/a/..//evil.example",
    "/a/%2e%2e//evil.example",
    "/./\\evil.example",
    "/..//evil.example",
    "/.//evil.example/path?q=1#f",
  ])("refuses %s", (value) => {
    const result = safeReturnTo(value);
    if (value === "/%0a")
      expect(result).toBe("/%0a"); // encoded, so only a path on this site
    else expect(result).toBe(DEFAULT_RETURN_TO);
  });

  it("keeps a same-site path with its query and fragment", () => {
    expect(safeReturnTo("/dashboard?days=14#trace")).toBe("/dashboard?days=14#trace");
  });

  it("normalises dot segments without leaving the site", () => {
    expect(safeReturnTo("/a/../../reports")).toBe("/reports");
  });

  it("falls back for missing or non-string values", () => {
    expect(safeReturnTo(undefined)).toBe(DEFAULT_RETURN_TO);
    expect(safeReturnTo(["/x"])).toBe(DEFAULT_RETURN_TO);
    expect(safeReturnTo("")).toBe(DEFAULT_RETURN_TO);
  });
});
