/**
 * Where to send the browser after sign-in or a saved form: only a path on this site. The rule is
 * applied to the path as the browser will read it, after normalisation: "/.//evil.example",
 * "/%2e//evil.example" and "/a/..//evil.example" all normalise to "//evil.example", which a
 * browser reads as another host, so checking the raw text for a leading "//" is not enough.
 */
export const DEFAULT_RETURN_TO = "/dashboard";

/** Longer paths are not ours to follow (our own are short) and would make an oversized Location. */
export const RETURN_TO_MAX_LENGTH = 2048;

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

export function safeReturnTo(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > RETURN_TO_MAX_LENGTH)
    return DEFAULT_RETURN_TO;
  if (!isOwnPath(value)) return DEFAULT_RETURN_TO;
  const path = resolvedPath(value);
  // Checked again after normalisation, and once more resolved: what we send must be a fixed point,
  // so the browser's own resolution of our Location cannot turn it into another host.
  if (path === null || !isOwnPath(path) || resolvedPath(path) !== path) return DEFAULT_RETURN_TO;
  if (path.length > RETURN_TO_MAX_LENGTH) return DEFAULT_RETURN_TO;
  return path;
}
