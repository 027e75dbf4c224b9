/**
 * The one rule for a path taken from the user and sent back as a redirect (a return path after
 * sign-in, a form's way back, the sandbox's post-login page): only a path of this site, judged on
 * the path as the browser will read it, after normalisation. "/.//evil.example",
 * "/%2e//evil.example" and "/a/..//evil.example" all normalise to "//evil.example", which a
 * browser reads as another host, so checking the raw text is not enough; likewise
 * "/sandbox/%2e%2e/dashboard" is "/dashboard", outside the sandbox.
 */

/** Longer paths are not ours to follow (our own are short) and would make an oversized Location. */
export const RETURN_PATH_MAX_LENGTH = 2048;

/** Any origin serves: only paths are accepted, so the result is the same whatever the app's is. */
const ORIGIN = "http://same-origin.invalid";

/**
 * The path part of `value` resolved against our origin, or null when it leaves the origin. Dot
 * segments and percent-encoded dots are resolved exactly as a browser resolves a Location.
 */
function resolvedPath(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== ORIGIN) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * A path a browser resolves to this origin whatever its base: it starts with one "/", is not a
 * network-path reference ("//host", or "/\host", which browsers read alike), and has no control
 * characters (which browsers strip, so "/\t/host" would become "//host").
 */
function isOwnPath(path: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
  if (/[\u0000-\u001f\u007f]/.test(path) || path.includes("\\")) return false;
  return path.startsWith("/") && !path.startsWith("//");
}

/** Whether normalised `path` lies at or below `prefix` ("/sandbox": "/sandbox/x", "/sandbox?y"). */
function isWithin(path: string, prefix: string): boolean {
  return path === prefix || [`${prefix}/`, `${prefix}?`, `${prefix}#`].some((p) => path.startsWith(p));
}

/**
 * `value` as a path of this site, normalised, or null when it is not one (or not below `within`).
 * What is returned is a fixed point: resolved again by the browser it stays the same path.
 */
export function ownPath(value: unknown, options: { within?: string } = {}): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > RETURN_PATH_MAX_LENGTH) return null;
  if (!isOwnPath(value)) return null;
  const path = resolvedPath(value);
  if (path === null || !isOwnPath(path) || resolvedPath(path) !== path) return null;
  if (path.length > RETURN_PATH_MAX_LENGTH) return null;
  if (options.within !== undefined && !isWithin(path, options.within)) return null;
  return path;
}
