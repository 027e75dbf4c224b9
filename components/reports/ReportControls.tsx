import { DayField } from "@/components/forms/DayField";
import { ChoiceLinks } from "@/components/records/ChoiceLinks";
import { TARGET_GROUPS, TARGET_PRESETS } from "@/lib/metrics/targets";
import {
  type ResolvedTargetGroup,
  targetGroupLabel,
  targetGroupSentence,
} from "@/lib/preferences/target-group";
import { hrefWith } from "@/lib/records/query";
import { AGP_DEFAULTS, type AgpQuery, agpQueryParams } from "@/lib/reports/agp/agp-query";
import { periodChoices } from "@/lib/reports/period/period-choices";
import { PrintButton } from "./PrintButton";

/** The report's choices as plain links and a GET form: period, targets, custom days, print, PDF. */
export function ReportControls({
  path,
  query,
  pdfPath = "/api/reports/agp-pdf",
  shownDays = null,
  goals,
  viewer,
}: {
  path: string;
  query: AgpQuery;
  /** The days the report shows (its label's): the date fields start from them. */
  shownDays?: { firstDay: string | null; lastDay: string | null } | null;
  /** The group the view judges by unless the query asks for another (a one-off look). */
  goals: ResolvedTargetGroup;
  viewer: "patient" | "clinic";
  /** Where the PDF of this report is served: the patient's own, or a clinic patient's. */
  pdfPath?: string;
}) {
  const current = agpQueryParams(query);
  const { startDate: _s, endDate: _e, startDay: _sd, endDay: _ed, ...keep } = current;
  const href = (change: Record<string, string>) => hrefWith(path, keep, change, AGP_DEFAULTS);
  const pdf = (paper: "a4" | "letter") => `${pdfPath}?${new URLSearchParams({ ...current, paper })}`;
  const days = query.period.kind === "days" ? query.period.days : null;
  const shown = query.population ?? goals.group;
  const oneOff = query.population !== null && query.population !== goals.group;
  return (
    <div className="space-y-3 print:hidden" data-testid="report-controls">
      <ChoiceLinks
        id="report-period"
        label="Period"
        choices={periodChoices(days, (d) => href({ days: String(d) }))}
      />
      <ChoiceLinks
        id="report-targets"
        label="Targets for"
        choices={TARGET_GROUPS.map((id) => ({
          href: hrefWith(path, current, { targets: id }, AGP_DEFAULTS),
          label: TARGET_PRESETS[id].label,
          current: id === shown,
        }))}
      />
      <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="report-goals">
        {oneOff ? (
          <>
            Showing the goals for {targetGroupLabel(shown)} for this look only;{" "}
            {viewer === "clinic" ? "the patient's" : "your"} goals are {targetGroupLabel(goals.group)}.{" "}
            <a
              href={hrefWith(path, keep, {}, AGP_DEFAULTS)}
              className="font-medium text-blue-800 underline dark:text-blue-300"
            >
              Show {viewer === "clinic" ? "the patient's" : "your"} goals
            </a>
          </>
        ) : (
          targetGroupSentence(goals, viewer)
        )}
      </p>
      <form method="get" action={path} className="flex flex-wrap items-end gap-3 text-sm">
        {query.population && <input type="hidden" name="targets" value={query.population} />}
        <DayField label="First day" name="startDay" defaultValue={shownDays?.firstDay ?? undefined} />
        <DayField label="Last day" name="endDay" defaultValue={shownDays?.lastDay ?? undefined} />
        <button
          type="submit"
          className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Show these days
        </button>
        <p className="basis-full text-xs text-slate-700 dark:text-slate-300">
          Days on the receiver&apos;s clock, midnight to midnight.
        </p>
      </form>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <PrintButton />
        <a
          href={pdf("a4")}
          className="font-medium text-blue-800 underline dark:text-blue-300"
          data-testid="pdf-a4"
        >
          Download PDF (A4)
        </a>
        <a
          href={pdf("letter")}
          className="font-medium text-blue-800 underline dark:text-blue-300"
          data-testid="pdf-letter"
        >
          Download PDF (Letter)
        </a>
      </div>
    </div>
  );
}
