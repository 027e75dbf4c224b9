/**
 * Security headers of every response, as a pure function of the request's path and the
 * deployment, so they can be tested without a server. The CSP is nonce-based (a fresh nonce per
 * request, Next applies it to its own scripts): no inline script runs unless we rendered it.
 */

export interface HeaderContext {
  nonce: string;
  pathname: string;
  /** https deployments get HSTS, Secure-only upgrades and `upgrade-insecure-requests`. */
  https: boolean;
  development: boolean;
  /** Origin of the glucose service: our sign-in form is answered by a redirect there. */
  serviceOrigin: string;
}

export function contentSecurityPolicy(c: HeaderContext): string {
  const sandboxPage = c.pathname === "/sandbox" || c.pathname.startsWith("/sandbox/");
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${c.nonce}' 'strict-dynamic'${c.development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${c.nonce}'`,
    // Charts position their parts with style attributes; attributes cannot run code.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    // A form's redirect counts as its target: our sign-in goes on to the service. The sandbox's
    // consent form sends the browser to any registered app's redirect URI, so it is not limited.
    ...(sandboxPage ? [] : [`form-action 'self' ${c.serviceOrigin}`]),
    "frame-ancestors 'none'",
    ...(c.https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

export function securityHeaders(c: HeaderContext): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(c),
    "X-Content-Type-Options": "nosniff",
    // The sign-in callback's URL carries the authorization code: nothing may learn it from a Referer.
    "Referrer-Policy": c.pathname.startsWith("/api/auth/callback/") ? "no-referrer" : "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    ...(c.https ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

/** 128 random bits, base64: unguessable, and valid in a CSP nonce-source. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
