import { NoReport, PdfUnavailable, ReportBusy } from "@/lib/reports/agp/pdf";

/**
 * What a failed render tells the clinician (stored on the item, shown on the page and in the
 * packet's CSV) and what the server's log keeps. An exception's own text never reaches the page:
 * it can hold Chromium's output, file paths or the database's words, none of which a clinician can
 * act on; the log gets its first line.
 */

export type RenderOutcome =
  | { kind: "done"; pdf: Buffer; period: string | null }
  | { kind: "failed"; reason: string }
  /** Worth trying again soon (the call budget for the minute is spent): the item waits. */
  | { kind: "later" };

export const RENDER_FAILURES = {
  noReport: "The glucose service holds no readings for this patient: there is no report.",
  printer:
    "The server cannot print PDFs now (its headless browser could not be started): ask your administrator, then Retry.",
  notPdf: "The printer gave no PDF: Retry.",
  other: "The report could not be prepared (the glucose service did not answer in time): Retry.",
  unexpected: "The report could not be prepared because of an error on the server (it is logged): Retry.",
} as const;

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0] ?? "";

/** The item's outcome for an error a render threw, and the line for the server's log (null: none). */
export function outcomeOfError(e: unknown): { outcome: RenderOutcome; log: string | null } {
  if (e instanceof NoReport)
    return { outcome: { kind: "failed", reason: RENDER_FAILURES.noReport }, log: null };
  if (e instanceof ReportBusy) return { outcome: { kind: "later" }, log: null };
  if (e instanceof PdfUnavailable)
    return {
      outcome: { kind: "failed", reason: RENDER_FAILURES.printer },
      log: `clinic day: no PDF printer: ${firstLine(e)}`,
    };
  return {
    outcome: { kind: "failed", reason: RENDER_FAILURES.other },
    log: `clinic day: an AGP PDF could not be rendered: ${firstLine(e)}`,
  };
}

/** For an error outside the render itself (the runner's own bug or the database): never its text. */
export function unexpectedFailure(e: unknown): { outcome: RenderOutcome; log: string } {
  return {
    outcome: { kind: "failed", reason: RENDER_FAILURES.unexpected },
    log: `clinic day: an item failed unexpectedly: ${firstLine(e)}`,
  };
}
