import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, type HeaderContext, newNonce, securityHeaders } from "./headers";

const ctx: HeaderContext = {
  nonce: "bm9uY2U=",
  pathname: "/dashboard",
  https: true,
  development: false,
  serviceOrigin: "https://api.example-cgm.test",
};

describe("securityHeaders", () => {
  it("has a nonce CSP without unsafe-inline scripts, framing refused", () => {
    const csp = contentSecurityPolicy(ctx);
    expect(csp).toContain("script-src 'self' 'nonce-bm9uY2U=' 'strict-dynamic'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("form-action 'self' https://api.example-cgm.test");
    expect(csp).toContain("upgrade-insecure-requests");
  });

  it("sends HSTS only over https", () => {
    expect(securityHeaders(ctx)["Strict-Transport-Security"]).toMatch(/^max-age=\d+/);
    expect(securityHeaders({ ...ctx, https: false })["Strict-Transport-Security"]).toBeUndefined();
    expect(contentSecurityPolicy({ ...ctx, https: false })).not.toContain("upgrade-insecure-requests");
  });

  it("sets nosniff and a referrer policy, no-referrer on the sign-in callback", () => {
    const h = securityHeaders(ctx);
    expect(h["X-Content-Type-Options"]).toBe("nosniff");
    expect(h["Referrer-Policy"]).toBe("same-origin");
    expect(securityHeaders({ ...ctx, pathname: "/api/auth/callback/cgm" })["Referrer-Policy"]).toBe(
      "no-referrer",
    );
  });

  it("does not limit form targets on the sandbox's pages (consent redirects to any registered app)", () => {
    expect(contentSecurityPolicy({ ...ctx, pathname: "/sandbox/v3/oauth2/consent" })).not.toContain(
      "form-action",
    );
  });

  it("makes a fresh 128-bit nonce each time", () => {
    const a = newNonce();
    expect(Buffer.from(a, "base64")).toHaveLength(16);
    expect(newNonce()).not.toBe(a);
  });
});
