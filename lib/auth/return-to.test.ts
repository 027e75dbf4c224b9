import fc from "fast-check";
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

  // Paths made of the pieces that have fooled return-path checks: dot segments plain and
  // percent-encoded, doubled and back slashes, hosts, schemes, controls, queries and fragments.
  const piece = fc.oneof(
    fc.constantFrom(".", "..", "%2e", "%2E", "%2e%2e", ".%2e", "/", "//", "\\", "%2f", "%5c", "evil.example"),
    fc.constantFrom(
      "https:",
      "javascript:",
      "@",
      ":",
      "?",
      "#",
      "\t",
      "\n",
      "%09",
      "%0a",
      " ",
      "a",
      "dashboard",
    ),
    fc.string({ maxLength: 6 }),
  );
  const path = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
  const bases = ["https://app.example/", "https://app.example/a/b/c", "https://app.example/clinic?x=1#y"];

  it("property: whatever it is given, the browser's resolution of the answer stays on this site", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          path,
          path.map((p) => `/${p}`),
        ),
        (value) => {
          const answer = safeReturnTo(value);
          expect(answer.startsWith("/")).toBe(true);
          expect(answer.startsWith("//")).toBe(false);
          // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
          expect(answer).not.toMatch(/[\\\u0000-\u001f\u007f]/);
          // Resolved from any page of ours, as a browser resolves a Location, it is ours.
          for (const base of bases) expect(new URL(answer, base).origin).toBe("https://app.example");
          // And it is its own answer: nothing left for a second normalisation to change.
          expect(safeReturnTo(answer)).toBe(answer);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
