import "server-only";
import { z } from "zod";
import { zodMessage } from "@/lib/cgm/schemas";
import { preferencesOf } from "@/lib/preferences/store";
import { agpQueryParams, parseAgpQuery } from "@/lib/reports/agp/agp-query";
import { NoReport, PdfUnavailable, ReportBusy, renderReportPdf } from "@/lib/reports/agp/pdf";
import { loadComparison } from "@/lib/reports/comparison/comparison-load";
import { parseComparisonRequest } from "@/lib/reports/comparison/comparison-view";
import { attachmentDisposition, reportFileName } from "@/lib/reports/identity/file-name";
import { reportPeriodSchema } from "@/lib/reports/period/period";
import { loadSummary } from "@/lib/reports/summary/summary";
import { callBudgetRefusal, callBudgetSpent } from "@/lib/service-client/request-calls";
import { InputError } from "./errors";
import type { PatientContext } from "./route";

/** A report's explicit window from the query, or a 400 that says what to change. */
export function reportPeriodFrom(searchParams: URLSearchParams) {
  const parsed = reportPeriodSchema.safeParse({
    startDate: searchParams.get("startDate") ?? undefined,
    endDate: searchParams.get("endDate") ?? undefined,
  });
  if (!parsed.success) throw new InputError(zodMessage(parsed.error.issues));
  return parsed.data;
}

/**
 * GET /api/reports/summary?startDate=…&endDate=…: the period's consensus metrics (mg/dL, %,
 * minutes), the patient's target group and its goals judged.
 */
export async function summaryRead({ req, connection, targetGroup }: PatientContext) {
  const period = reportPeriodFrom(req.nextUrl.searchParams);
  return loadSummary(connection, period, (await targetGroup()).group);
}

const paperSchema = z.enum(["a4", "letter"], { message: 'paper must be "a4" or "letter"' });

/**
 * GET /api/reports/agp-pdf?days=14&targets=standard&paper=a4 (or startDate/endDate): the AGP
 * report page printed to PDF on the server, for the signed-in patient only.
 */
export const agpPdfRead = (ctx: PatientContext) => agpPdfOf("/reports", ctx);

/**
 * The report page at `reportPath` printed to PDF with the requester's own cookies, so the page
 * makes the same access checks for the printer as for the person; `extraCookies` go to the
 * printer only (the clinic's marker that keeps the render out of the audit log).
 */
export async function agpPdfOf(
  reportPath: string,
  { req, viewerId }: PatientContext,
  extraCookies: ReadonlyArray<{ name: string; value: string }> = [],
): Promise<Response> {
  const params = req.nextUrl.searchParams;
  const query = parseAgpQuery((name) => params.get(name) ?? undefined);
  if (!query.ok) throw new InputError(`This report period cannot be printed: ${query.message}.`);
  const paper = paperSchema.safeParse(params.get("paper") ?? "a4");
  if (!paper.success) throw new InputError(zodMessage(paper.error.issues));
  // The page's reads are charged to the viewer out of this request's sight (in the printer's
  // browser): with none left, the answer is the budget's 429 before a browser is started.
  const spent = callBudgetRefusal(viewerId);
  if (spent) throw spent;
  const cookies = [
    ...req.cookies
      .getAll()
      .filter(({ name }) => !extraCookies.some((c) => c.name === name))
      .map(({ name, value }) => ({ name, value })),
    ...extraCookies,
  ];
  try {
    const { pdf, period, fileName } = await renderReportPdf(
      `${reportPath}?${new URLSearchParams(agpQueryParams(query.value))}`,
      cookies,
      paper.data,
    );
    // The page names its file (patient and period); a page without a name still gives the period.
    const [firstDay, lastDay] = (period ?? "").split("_");
    const name = fileName ?? reportFileName({ kind: "agp", patientName: null, firstDay, lastDay });
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": attachmentDisposition(name),
      },
    });
  } catch (e) {
    if (e instanceof NoReport)
      throw new InputError("No glucose readings exist yet, so there is no report to print.", 404, "no_data");
    if (e instanceof PdfUnavailable) throw new InputError(e.message, 503, "pdf_unavailable");
    // The budget ran out while the page read: the viewer's 429 (with Retry-After), no failure.
    if (e instanceof ReportBusy) throw callBudgetSpent(viewerId);
    // The page itself could not show the report (the service failed meanwhile): logged for the
    // operator without the query, and the patient is told to retry.
    console.error(`reports: the AGP PDF could not be rendered: ${(e as Error).message}`);
    throw new InputError(
      "The report could not be prepared just now; try again in a moment.",
      503,
      "report_unavailable",
    );
  }
}

/**
 * GET /api/reports/compare?days=14, or ?startDate=…&endDate=… for the recent period: both
 * periods' metrics (as /api/reports/summary answers them), the changes and their attribution to
 * time of day. `comparison` is null when `days` is asked and the service holds no readings.
 */
export async function compareRead({ req, userId, connection, targetGroup }: PatientContext) {
  const params = req.nextUrl.searchParams;
  const request = parseComparisonRequest((name) => params.get(name));
  if (!request.ok) throw new InputError(request.message);
  const preferences = await preferencesOf(userId);
  const goals = await targetGroup(preferences);
  const comparison = await loadComparison(connection, preferences, request.value, goals.group);
  return { comparison };
}
