import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkBodySize,
  checkContentType,
  checkJsonStrings,
  checkLocation,
  checkText,
  checkUrl,
  crossSiteActionRefusal,
  INPUT_LIMITS,
  isCrossSite,
} from "./input";

const OURS = "https://dashboard.example";

describe("checkText", () => {
  it("accepts ordinary text, accents and emoji included", () => {
    expect(checkText("The field", "Zoë Müller-Ōta 🙂 <dr@clinic.example>")).toBeNull();
  });

  it("refuses a NUL byte, naming it", () => {
    expect(checkText("The field", "a\u0000b")).toMatchObject({
      status: 400,
      code: "invalid_characters",
      message: expect.stringMatching(/^The field contains a NUL byte \(%00\); remove it/),
    });
  });

  it.each([
    ["a tab", "\t"],
    ["a line feed", "\n"],
    ["a carriage return", "\r"],
    ["an escape", "\u001b"],
    ["DEL", "\u007f"],
    ["a C1 control", "\u0085"],
  ])("refuses %s in a one-line field", (_label, c) => {
    expect(checkText("The field", `a${c}b`)?.code).toBe("invalid_characters");
  });

  it("keeps tabs and newlines in a multiline field, not other controls", () => {
    expect(checkText("Notes", "line 1\r\n\tline 2", { multiline: true })).toBeNull();
    expect(checkText("Notes", "a\u0000b", { multiline: true })?.code).toBe("invalid_characters");
    expect(checkText("Notes", "a\u000bb", { multiline: true })?.code).toBe("invalid_characters");
  });

  it("refuses a field longer than its limit, saying the limit", () => {
    expect(checkText("The field", "x".repeat(INPUT_LIMITS.field))).toBeNull();
    expect(checkText("The field", "x".repeat(INPUT_LIMITS.field + 1))).toMatchObject({
      status: 400,
      code: "too_long",
      message: `The field is ${INPUT_LIMITS.field + 1} characters long; at most ${INPUT_LIMITS.field} are accepted.`,
    });
    expect(checkText("Notes", "x".repeat(INPUT_LIMITS.field + 1), { multiline: true })).toBeNull();
    expect(checkText("Notes", "x".repeat(INPUT_LIMITS.multilineField + 1), { multiline: true })?.code).toBe(
      "too_long",
    );
  });

  it("property: refuses exactly the strings with a control character, or too long", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 1100 }), (s) => {
        const hasControl = [...s].some((c) => {
          const n = c.charCodeAt(0);
          return n < 0x20 || (n >= 0x7f && n <= 0x9f);
        });
        const refused = checkText("f", s) !== null;
        expect(refused).toBe(hasControl || s.length > INPUT_LIMITS.field);
      }),
      { numRuns: 500 },
    );
  });
});

describe("checkUrl", () => {
  it("accepts an ordinary path and query", () => {
    expect(
      checkUrl("/api/clinic/patients/3f2a/summary", "?startDate=2026-01-01T00:00:00&x=%C3%A9"),
    ).toBeNull();
    expect(checkUrl("/", "")).toBeNull();
  });

  it.each([
    ["a NUL in a path segment", "/api/clinic/patients/a%00b/summary", ""],
    ["a NUL in a share id", "/api/sharing/a%00b/withdraw", ""],
    ["a line feed in a path segment", "/clinic/patients/a%0Ab", ""],
    ["a NUL in a query value", "/clinic", "?clinic=a%00b"],
    ["a control character in a query name", "/clinic", "?a%01=b"],
  ])("refuses %s", (_label, path, search) => {
    expect(checkUrl(path, search)).toMatchObject({ status: 400, code: "invalid_characters" });
  });

  it("refuses a malformed %-escape", () => {
    expect(checkUrl("/api/sharing/%E0%A4%A/withdraw", "")).toMatchObject({
      status: 400,
      code: "invalid_path",
    });
  });

  it("refuses an over-long path segment, query value or address", () => {
    expect(checkUrl(`/clinic/patients/${"a".repeat(INPUT_LIMITS.pathSegment + 1)}`, "")?.code).toBe(
      "too_long",
    );
    expect(checkUrl("/clinic", `?clinic=${"a".repeat(INPUT_LIMITS.field + 1)}`)?.code).toBe("too_long");
    expect(checkUrl("/clinic", `?${"a=b&".repeat(INPUT_LIMITS.url / 4 + 1)}`)?.code).toBe("too_long");
  });
});

describe("checkContentType", () => {
  it("accepts the form types, with parameters, in any case", () => {
    expect(checkContentType("application/x-www-form-urlencoded;charset=UTF-8", "form")).toBeNull();
    expect(checkContentType("Multipart/Form-Data; boundary=x", "form")).toBeNull();
  });

  it("accepts JSON and +json types for JSON", () => {
    expect(checkContentType("application/json; charset=utf-8", "json")).toBeNull();
    expect(checkContentType("application/merge-patch+json", "json")).toBeNull();
  });

  it("refuses another type with 415, saying what to send", () => {
    expect(checkContentType("application/json", "form")).toMatchObject({
      status: 415,
      message:
        "This request takes a form body sent as application/x-www-form-urlencoded or multipart/form-data, not application/json.",
    });
    expect(checkContentType(null, "json")?.message).toBe(
      "This request takes a JSON body sent as application/json (no Content-Type was given).",
    );
    expect(checkContentType("text/plain", "json")?.status).toBe(415);
  });
});

describe("checkJsonStrings", () => {
  it("accepts numbers, nested objects and ordinary strings", () => {
    expect(checkJsonStrings({ a: [1, { b: "ok", c: null, d: true }] })).toBeNull();
  });

  it("refuses a control character in a nested value or a key, naming the field", () => {
    expect(checkJsonStrings({ targetRanges: [{ name: "Day\u0000" }] })?.message).toMatch(
      /^The field "name" contains a NUL byte/,
    );
    expect(checkJsonStrings({ "a\u0001": 1 })?.message).toMatch(/^A field name contains a control character/);
    expect(checkJsonStrings("a\u0000")?.message).toMatch(/^A value contains a NUL byte/);
  });

  it("keeps newlines in the fields named multiline", () => {
    expect(checkJsonStrings({ note: "a\nb" })?.code).toBe("invalid_characters");
    expect(checkJsonStrings({ note: "a\nb" }, new Set(["note"]))).toBeNull();
  });
});

describe("sizes and locations", () => {
  it("refuses a body over the limit with 413", () => {
    expect(checkBodySize(INPUT_LIMITS.body)).toBeNull();
    expect(checkBodySize(INPUT_LIMITS.body + 1)).toMatchObject({ status: 413, code: "too_large" });
  });

  it("refuses a Location over the URL limit", () => {
    expect(checkLocation(`/clinic/join?token=${"a".repeat(100)}`)).toBeNull();
    expect(checkLocation(`/clinic/join?token=${"a".repeat(INPUT_LIMITS.url)}`)).toMatchObject({
      status: 400,
      code: "too_long",
    });
  });
});

describe("isCrossSite", () => {
  const check = (origin: string | null, secFetchSite: string | null) =>
    isCrossSite({ origin, secFetchSite }, OURS);

  it("accepts our own Origin whatever Sec-Fetch-Site says", () => {
    expect(check(OURS, "same-origin")).toBe(false);
    expect(check(OURS, null)).toBe(false);
  });

  it("refuses another Origin, and the opaque origin null", () => {
    expect(check("https://evil.example", "cross-site")).toBe(true);
    expect(check("https://evil.example", null)).toBe(true);
    expect(check("null", null)).toBe(true);
    expect(check(`${OURS}:8443`, "same-site")).toBe(true);
  });

  it("without an Origin, refuses only what the browser calls cross-site", () => {
    expect(check(null, "cross-site")).toBe(true);
    expect(check(null, "same-site")).toBe(false);
    expect(check(null, "same-origin")).toBe(false);
    expect(check(null, "none")).toBe(false);
    expect(check(null, null)).toBe(false);
  });
});

describe("crossSiteActionRefusal", () => {
  const post = {
    method: "POST",
    contentType: "multipart/form-data; boundary=x",
    nextAction: null,
    origin: "https://evil.example",
    secFetchSite: "cross-site",
  };

  it("refuses a multipart POST or a Next-Action POST from another site with 403", () => {
    expect(crossSiteActionRefusal(post, OURS)).toMatchObject({ status: 403, code: "forbidden_origin" });
    expect(
      crossSiteActionRefusal({ ...post, contentType: "text/plain", nextAction: "7f00" }, OURS)?.status,
    ).toBe(403);
    expect(crossSiteActionRefusal({ ...post, origin: null }, OURS)?.status).toBe(403);
  });

  it("lets our own posts, and everything that is not a possible server action, through", () => {
    expect(crossSiteActionRefusal({ ...post, origin: OURS }, OURS)).toBeNull();
    expect(
      crossSiteActionRefusal({ ...post, contentType: "application/x-www-form-urlencoded" }, OURS),
    ).toBeNull();
    expect(crossSiteActionRefusal({ ...post, method: "GET" }, OURS)).toBeNull();
  });
});
