/**
 * The query of the record pages (events, calibrations, devices): plain links that keep the other
 * choices, so every filter works without JavaScript.
 */

/** One link of a row of choices (ChoiceLinks): where it leads, its words, whether it is the one shown. */
export interface Choice {
  href: string;
  label: string;
  current: boolean;
  /** The records the choice would list, when the page counts them. */
  count?: number;
}

/** One value of Next's searchParams: absent, once, or repeated. */
export type SearchParam = string | string[] | undefined;

/** The first value of a query parameter, or undefined. */
export function firstParam(param: SearchParam): string | undefined {
  return Array.isArray(param) ? param[0] : param;
}

/**
 * `path` with the current choices and `change` applied, in the order of `current` then `change`.
 * A choice equal to its default (given in `defaults`) is left out, so the plain page has a plain URL.
 */
export function hrefWith(
  path: string,
  current: Record<string, string>,
  change: Record<string, string>,
  defaults: Record<string, string> = {},
): string {
  const merged = { ...current, ...change };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(merged)) {
    if (defaults[key] !== value) query.set(key, value);
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
