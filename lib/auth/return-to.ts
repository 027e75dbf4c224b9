import { ownPath } from "@/lib/http/return-path";

/**
 * Where to send the browser after sign-in or a saved form: a path of this site by the one
 * return-path rule (lib/http/return-path.ts), else the dashboard.
 */
export const DEFAULT_RETURN_TO = "/dashboard";

export function safeReturnTo(value: unknown): string {
  return ownPath(value) ?? DEFAULT_RETURN_TO;
}
