import type { AgpReport as AgpReportModel } from "@/lib/reports/agp/agp-model";
import type { ReportIdentity as ReportIdentityModel } from "@/lib/reports/identity/identity";
import { AgpChart } from "./AgpChart";
import { AgpEpisodes } from "./AgpEpisodes";
import { AgpGriGrid } from "./AgpGriGrid";
import { AgpMetrics } from "./AgpMetrics";
import { DailyProfiles } from "./DailyProfiles";
import { MethodsNote } from "./MethodsNote";
import { ReportIdentity } from "./ReportIdentity";

/**
 * The AGP report itself (metrics, profile, daily profiles, methods), as the patient's report page
 * and a clinician's view of a patient show it, and as both print.
 */
export function AgpReport({
  report,
  clock = "your receiver's clock",
  identity,
}: {
  report: AgpReportModel;
  /** Whose clock the profile is drawn on, in the reader's words. */
  clock?: string;
  identity?: ReportIdentityModel;
}) {
  return (
    <article
      className="agp-report space-y-5 print:space-y-1.5"
      data-testid="agp-report"
      data-period={`${report.period.firstDay ?? ""}_${report.period.lastDay ?? ""}`}
      data-file-name={identity?.fileName}
    >
      {identity && <ReportIdentity lines={identity.lines} />}
      {report.metrics.nValues === 0 && (
        <p
          data-testid="agp-no-readings"
          className="agp-no-readings rounded-md border border-amber-400 p-3 font-medium"
        >
          No glucose readings exist in this period: the report below has no values. Choose another period, or
          check that the sensor&apos;s readings have been uploaded.
        </p>
      )}
      <AgpMetrics report={report} />
      <AgpGriGrid report={report} />
      <AgpEpisodes report={report} />
      <section aria-labelledby="agp-profile-heading" className="agp-profile">
        <h2 id="agp-profile-heading" className="mb-1 font-semibold">
          Ambulatory glucose profile
        </h2>
        <p className="mb-2 text-sm text-slate-700 print:hidden dark:text-slate-300">
          {`Every reading of the period placed on one day by its time on ${clock}: the line is the median, the bands hold the middle 50% and 90% of readings.`}
        </p>
        <AgpChart report={report} />
      </section>
      <section aria-labelledby="agp-days-heading" className="agp-days">
        <h2 id="agp-days-heading" className="mb-2 font-semibold">
          Daily glucose profiles{" "}
          <span className="font-normal text-slate-700 dark:text-slate-300">
            · the last {report.dailyProfiles.length} days, midnight to midnight
          </span>
        </h2>
        <DailyProfiles report={report} />
      </section>
      <MethodsNote />
    </article>
  );
}
