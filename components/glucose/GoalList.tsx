import type { JudgedGoal } from "@/lib/trace/goal-text";

/**
 * The consensus goals of a target group, each said met or not met in words and with a mark (never
 * by colour alone). Cumulative, as the consensus defines them: below 70 mg/dL includes below 54.
 */
export function GoalList({
  goals,
  caption,
  testId = "goal-list",
}: {
  goals: readonly JudgedGoal[];
  caption: React.ReactNode;
  testId?: string;
}) {
  return (
    <table className="w-full text-sm" data-testid={testId}>
      <caption className="mb-1 text-left font-medium">{caption}</caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Goal</th>
          <th scope="col">Value</th>
          <th scope="col">Met</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
        {goals.map((g) => (
          <tr key={g.metric} data-goal={g.metric} data-met={g.met}>
            <th scope="row" className="py-1 pr-2 text-left font-normal">
              {g.label}
            </th>
            <td className="py-1 pr-2 text-slate-700 dark:text-slate-300">{g.goal}</td>
            <td className="py-1 pr-2 text-right font-semibold tabular-nums">{g.valueText}</td>
            <td className="py-1 text-right whitespace-nowrap">
              <GoalMark met={g.met} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "✓ met" or "✗ not met": the words carry the meaning, the mark and colour repeat it. */
export function GoalMark({ met }: { met: boolean }) {
  return met ? (
    <span className="text-emerald-800 dark:text-emerald-300">
      <span aria-hidden="true">✓ </span>met
    </span>
  ) : (
    <span className="font-semibold text-red-800 dark:text-red-300">
      <span aria-hidden="true">✗ </span>not met
    </span>
  );
}
