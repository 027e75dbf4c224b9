/**
 * Where to send the browser after sign-in. Only a path on this site: "//evil.example" and
 * "/\evil.example" are read by browsers as other hosts, and absolute URLs are other sites, so all
 * of them (and anything with control characters) fall back to the default.
 */
export const DEFAULT_RETURN_TO = "/dashboard";

export function safeReturnTo(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return DEFAULT_RETURN_TO;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return DEFAULT_RETURN_TO;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
  if (/[\u0000-\u001f\u007f]/.test(value)) return DEFAULT_RETURN_TO;
  const base = "http://same-origin.invalid";
  const url = new URL(value, base);
  if (url.origin !== base) return DEFAULT_RETURN_TO;
  return `${url.pathname}${url.search}${url.hash}`;
}
