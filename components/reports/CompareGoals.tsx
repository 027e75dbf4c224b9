import { GoalMark } from "@/components/glucose/GoalList";
import type { ComparisonReport } from "@/lib/reports/comparison/comparison-report";
import type { JudgedGoal } from "@/lib/trace/goal-text";
import { CompareTableFrame, CT_COL, CT_ROW, CT_TD, CT_TR } from "./CompareTableFrame";

function GoalCell({ goal }: { goal: JudgedGoal | undefined }) {
  if (!goal) return <span className="text-slate-700 dark:text-slate-300">no readings</span>;
  return (
    <span className="inline-flex flex-wrap items-baseline justify-end gap-x-2">
      <span className="font-semibold tabular-nums">{goal.valueText}</span>
      <GoalMark met={goal.met} />
    </span>
  );
}

/**
 * Each period against the consensus goals, met or not met in words and a mark: the change table
 * says better or worse, this says whether either period reached the goal at all.
 */
export function CompareGoals({
  goals,
  show,
}: {
  goals: ComparisonReport["goals"];
  show: { earlier: boolean; recent: boolean };
}) {
  const rows = goals.recent ?? goals.earlier ?? [];
  return (
    <CompareTableFrame id="compare-goals-caption" caption={`Consensus goals · ${goals.groupLabel}`}>
      <thead>
        <tr>
          <th scope="col" className={CT_COL}>
            Goal
          </th>
          {show.earlier && (
            <th scope="col" className={`${CT_COL} text-right`}>
              Earlier period
            </th>
          )}
          {show.recent && (
            <th scope="col" className={`${CT_COL} text-right`}>
              Recent period
            </th>
          )}
        </tr>
      </thead>
      <tbody data-testid="compare-goals">
        {rows.map((g) => (
          <tr key={g.metric} className={CT_TR} data-goal={g.metric}>
            <th scope="row" className={CT_ROW}>
              {g.label}
              <span className="block text-xs font-normal text-slate-700 dark:text-slate-300">{g.goal}</span>
            </th>
            {show.earlier && (
              <td className={`${CT_TD} text-right`} data-period="earlier">
                <GoalCell goal={goals.earlier?.find((e) => e.metric === g.metric)} />
              </td>
            )}
            {show.recent && (
              <td className={`${CT_TD} text-right`} data-period="recent">
                <GoalCell goal={goals.recent?.find((e) => e.metric === g.metric)} />
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </CompareTableFrame>
  );
}
