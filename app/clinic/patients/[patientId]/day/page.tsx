import type { Metadata } from "next";
import { DayBody, dayTitle } from "@/components/day/DayBody";
import { ReportIdentity } from "@/components/reports/ReportIdentity";
import { currentUserId } from "@/lib/auth";
import { noteBands } from "@/lib/clinic/domain/note-types";
import { notesFor } from "@/lib/clinic/domain/notes";
import { type ClinicViewProps, clinicPatientView } from "@/lib/dashboard/clinic-patient-view";
import { loadDay } from "@/lib/dashboard/day";
import { dayFetchWindow, parseDayParam } from "@/lib/dashboard/day-model";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { clinicReportViewer, viewIdentityLines } from "@/lib/reports/identity/identity-load";
import { dayViewPeriod } from "@/lib/reports/identity/view-periods";

export const metadata: Metadata = { title: "Patient's daily view" };

/** A clinic patient's day, as the patient's own daily view shows it, judged by the clinic's goals. */
export default function ClinicPatientDay(props: ClinicViewProps) {
  return clinicPatientView(props, "/day", {
    title: "Daily view",
    titleOf: dayTitle,
    parse: (search) => parseDayParam(search.date),
    load: async ({ connection, page, viewer, query: request }) =>
      request.kind === "invalid"
        ? request
        : await loadDay(
            connection,
            page.preferences,
            request.kind === "day" ? request.day : null,
            TARGET_PRESETS[page.goals.group],
            viewer,
          ),
    audit: (shown) =>
      shown.kind === "invalid"
        ? null
        : { action: "view.day", detail: shown.kind === "day" ? shown.model.day : shown.kind },
    render: async (shown, { connection, page, viewer }) => {
      const notes = await notesFor({
        kind: "clinician",
        userId: (await currentUserId()) ?? "",
        access: page.access,
      });
      return (
        <>
          {shown.kind === "day" && (
            <ReportIdentity
              lines={
                await viewIdentityLines({
                  connection,
                  who: clinicReportViewer(page.access),
                  view: dayViewPeriod(shown.model.day, dayFetchWindow(shown.model.day)),
                  targetGroup: TARGET_PRESETS[page.goals.group].label,
                })
              }
            />
          )}
          <DayBody shown={shown} viewer={viewer} noteBands={noteBands(notes)} />
        </>
      );
    },
  });
}
