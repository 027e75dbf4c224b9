import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ErrorNotice, supportReference } from "./ErrorNotice";

const serverError = () =>
  Object.assign(new Error('relation "egvs" does not exist at /srv/app/lib/db.ts:42'), {
    digest: "2841567391",
  });

const render = (error: unknown) =>
  renderToStaticMarkup(createElement(ErrorNotice, { error, retry: () => {} }));

describe("supportReference", () => {
  it("is the digest of a server error, and nothing for anything else", () => {
    expect(supportReference(serverError())).toBe("2841567391");
    expect(supportReference(new Error("no digest"))).toBeNull();
    expect(supportReference("a string was thrown")).toBeNull();
    expect(supportReference({ digest: 42 })).toBeNull();
    expect(supportReference(null)).toBeNull();
  });
});

describe("ErrorNotice", () => {
  it("has a heading, a real button to try again and the reference, never the error's message or stack", () => {
    const html = render(serverError());
    expect(html).toMatch(/<h1[^>]*>Something went wrong<\/h1>/);
    expect(html).toMatch(/<button type="button"[^>]*>Try again<\/button>/);
    expect(html).toContain("2841567391");
    expect(html).not.toContain("egvs");
    expect(html).not.toContain("/srv/app");
  });

  it("leaves the reference out when there is none", () => {
    expect(render(new Error("boom"))).not.toContain("error-reference");
    expect(render(new Error("boom"))).not.toContain("boom");
  });
});
