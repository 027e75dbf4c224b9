import { type Choice, hrefWith } from "@/lib/records/query";
import { REPORT_DEFAULT_DAYS, REPORT_PERIOD_DAYS } from "./period";

/**
 * The period links of a page (7, 14, 30 and 90 days): `href` says where each leads, keeping the
 * page's other choices; `current` is the one shown, or null when the page shows its own dates.
 */
export function periodChoices(current: number | null, href: (days: number) => string): Choice[] {
  return REPORT_PERIOD_DAYS.map((d) => ({ href: href(d), label: `${d} days`, current: d === current }));
}

/** The period links of a page whose only choice is its days: the default days at the plain address. */
export function daysChoices(path: string, current: number | null): Choice[] {
  return periodChoices(current, (d) =>
    hrefWith(path, {}, { days: String(d) }, { days: String(REPORT_DEFAULT_DAYS) }),
  );
}
