import "server-only";
import { loadIdentityLines, type ReportViewer } from "@/lib/reports/identity/identity-load";
import type { ViewPeriod } from "@/lib/reports/identity/view-periods";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { ReportIdentity } from "./ReportIdentity";

/**
 * The identity block of a printable view other than the AGP (compare, statistics by time of day,
 * daily view, overview), for the patient's pages and the clinic's alike: the lines are read here
 * (the account's name, the period's devices, reused across a visit's views) so that each page
 * only says whose view it is and of what period.
 */
export async function ViewIdentity({
  connection,
  who,
  view,
  targetGroup,
}: {
  connection: ConnectionRef;
  who: ReportViewer;
  view: ViewPeriod;
  targetGroup: string;
}) {
  const { lines } = await loadIdentityLines(connection, who, view.window, view.period, targetGroup);
  return <ReportIdentity lines={lines} />;
}
