import "server-only";
import { env } from "@/lib/platform/env";

/**
 * The browser's cookies, in one place. Over https they carry `Secure` and the `__Host-` prefix (the
 * browser then refuses them from any other host or path, and from plain http); on http://localhost
 * in development neither is possible. SameSite=Lax: the service's redirect back to our callback is
 * a top-level cross-site navigation, which Lax still lets through.
 */
export function cookieSecurity() {
  const secure = env().APP_URL.startsWith("https://");
  return { secure, prefix: secure ? "__Host-" : "" };
}

export function sessionCookie() {
  const { secure, prefix } = cookieSecurity();
  return {
    name: `${prefix}glucose.session`,
    options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure },
  };
}

/** Binds a sign-in attempt to the browser that started it; lives as long as the attempt. */
export function signInStateCookie() {
  const { secure, prefix } = cookieSecurity();
  return {
    name: `${prefix}glucose.signin-state`,
    options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure },
  };
}
