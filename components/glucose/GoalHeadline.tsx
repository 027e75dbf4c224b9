import type { GoalHeadline as Headline } from "@/lib/dashboard/judged-ranges";

/**
 * The goals' verdict at the top of a page: the most urgent unmet goal said plainly, with how many
 * others are unmet, or one calm line when every goal was met. A warning mark and the words "Goal
 * not met" say it without colour.
 */
export function GoalHeadline({ headline, detailsHref }: { headline: Headline; detailsHref?: string }) {
  if (headline.met)
    return (
      <p
        data-testid="goal-headline"
        data-met="true"
        className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-2 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
      >
        <span aria-hidden="true">✓ </span>
        {headline.sentence}
      </p>
    );
  return (
    <section
      aria-labelledby="goal-headline-heading"
      data-testid="goal-headline"
      data-met="false"
      className="rounded-lg border-2 border-red-700 bg-red-50 px-4 py-3 text-red-950 dark:border-red-400 dark:bg-red-950 dark:text-red-50"
    >
      <h2 id="goal-headline-heading" className="font-semibold">
        <span aria-hidden="true">⚠ </span>Goal not met
      </h2>
      <p className="text-lg font-semibold" data-testid="goal-sentence">
        {headline.sentence}
      </p>
      {headline.others && <p className="mt-1 text-sm">{headline.others}</p>}
      {detailsHref && (
        <a className="mt-1 inline-block text-sm font-medium underline" href={detailsHref}>
          All goals and time in ranges
        </a>
      )}
    </section>
  );
}
