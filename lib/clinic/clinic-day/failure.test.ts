import { describe, expect, it } from "vitest";
import { NoReport, PdfUnavailable, ReportBusy } from "@/lib/reports/agp/pdf";
import { outcomeOfError, RENDER_FAILURES, unexpectedFailure } from "./failure";

/** What a clinician reads must never carry the exception's own words (paths, Chromium's or the database's). */
const secretText = "/usr/lib/chromium/chrome: error while loading shared libraries: libX.so\nstack…";

describe("a render's failure, in words a clinician can act on", () => {
  it("names the printer, not Chromium's output; logs the detail's first line", () => {
    const { outcome, log } = outcomeOfError(
      new PdfUnavailable(`Chromium could not be started: ${secretText}`),
    );
    expect(outcome).toEqual({ kind: "failed", reason: RENDER_FAILURES.printer });
    expect(JSON.stringify(outcome)).not.toContain("chromium");
    expect(log).toContain("libraries: libX.so");
    expect(log).not.toContain("stack");
  });

  it("keeps a plain error's and an unexpected one's text out of the item", () => {
    for (const { outcome, log } of [
      outcomeOfError(new Error(secretText)),
      unexpectedFailure(new Error(secretText)),
    ]) {
      expect(outcome.kind).toBe("failed");
      expect(JSON.stringify(outcome)).not.toContain("libX");
      expect(log).toContain("libX");
    }
    expect(unexpectedFailure("x").outcome).toEqual({ kind: "failed", reason: RENDER_FAILURES.unexpected });
  });

  it("says there is no report, or waits for the call budget, without a log line", () => {
    expect(outcomeOfError(new NoReport("no readings"))).toEqual({
      outcome: { kind: "failed", reason: RENDER_FAILURES.noReport },
      log: null,
    });
    expect(outcomeOfError(new ReportBusy("budget"))).toEqual({ outcome: { kind: "later" }, log: null });
  });
});
