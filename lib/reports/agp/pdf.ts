import "server-only";
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "@/lib/platform/chromium";
import { env } from "@/lib/platform/env";

/**
 * The AGP report as a PDF, printed by headless Chromium from the report page itself: the same
 * HTML and print styles a browser prints, so the PDF and the page cannot disagree. The page is
 * opened with the requesting patient's own session cookies and JavaScript off (the report is
 * drawn on the server), so it can only ever show that patient's report.
 *
 * One browser per process, started when a report page is shown (a PDF usually follows, and a
 * launch costs about 1.5 s) or on the first PDF, reused, and closed after ten idle minutes; each
 * PDF gets its own context. At most two render at once: each holds a page in memory.
 */
export type Paper = "a4" | "letter";
const MAX_CONCURRENT = 2;
const RENDER_TIMEOUT_MS = 20_000;
const IDLE_CLOSE_MS = 10 * 60_000;

export class PdfUnavailable extends Error {}
/** The patient has no readings: there is no report to print. */
export class NoReport extends Error {}
/**
 * The page showed the call budget's notice instead of the report: whoever asked has spent their
 * service calls for the minute (lib/service-client/call-budget.ts), a 429 to them, not a failure.
 */
export class ReportBusy extends Error {}

/** The budget's notice, as the patient's pages (BlockedNotice) and the clinic's (ServiceStateNotice) show it. */
const BUSY_NOTICE = '[data-testid="busy-notice"], [data-testid="service-state"][data-state="busy"]';

let browserPromise: Promise<Browser> | null = null;

function launch(): Promise<Browser> {
  const executablePath = env().CHROMIUM_PATH;
  if (!existsSync(executablePath)) {
    return Promise.reject(
      new PdfUnavailable(
        `PDF rendering needs Chromium at ${executablePath} (set CHROMIUM_PATH); print the report from your browser instead.`,
      ),
    );
  }
  browserPromise ??= chromium
    .launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true })
    .then((b) => {
      b.on("disconnected", () => {
        browserPromise = null;
      });
      return b;
    })
    .catch((e: unknown) => {
      // A failed launch is not remembered: the next request tries again.
      browserPromise = null;
      throw new PdfUnavailable(
        `Chromium could not be started for the PDF: ${(e as Error).message.split("\n")[0]}`,
      );
    });
  return browserPromise;
}

let idleTimer: NodeJS.Timeout | undefined;
/** (Re)starts the idle countdown after which the browser is closed to give its memory back. */
function closeWhenIdle() {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (running > 0) return closeWhenIdle();
    const closing = browserPromise;
    browserPromise = null;
    void closing?.then((b) => b.close()).catch(() => {});
  }, IDLE_CLOSE_MS);
  idleTimer.unref();
}

/** Starts the browser ahead of a likely PDF, without waiting and without failing the caller. */
export function prewarmPdfBrowser(): void {
  if (!existsSync(env().CHROMIUM_PATH)) return;
  launch().then(closeWhenIdle, () => {});
}

let running = 0;
const waiting: Array<() => void> = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export interface RenderedPdf {
  pdf: Buffer;
  /** The period the report covered, as the page states it (data-period), for the file name. */
  period: string | null;
  /** The file name the page chose for its download (data-file-name: patient and period). */
  fileName: string | null;
}

/**
 * Prints `pathAndQuery` of this app (the report page) for the holder of `cookies`. Throws
 * PdfUnavailable when no browser can run, NoReport when the patient has no readings, ReportBusy
 * when the holder's call budget ran out, or Error when the page did not show a report (the
 * service failed while it was being prepared).
 */
type Cookies = Array<{ name: string; value: string }>;

export function renderReportPdf(
  pathAndQuery: string,
  /** Or made once a slot is free (a clinic day's short-lived render grant). */
  cookies: Cookies | (() => Cookies),
  paper: Paper,
): Promise<RenderedPdf> {
  return slot(async () => {
    const browser = await launch();
    closeWhenIdle();
    const base = env().PDF_RENDER_URL;
    const context = await browser.newContext({ javaScriptEnabled: false, colorScheme: "light" });
    try {
      const jar = typeof cookies === "function" ? cookies() : cookies;
      await context.addCookies(jar.map((c) => ({ name: c.name, value: c.value, url: base })));
      const page = await context.newPage();
      page.setDefaultTimeout(RENDER_TIMEOUT_MS);
      const response = await page.goto(`${base}${pathAndQuery}`, { waitUntil: "load" });
      const report = page.getByTestId("agp-report");
      if ((await page.getByTestId("agp-empty").count()) > 0) throw new NoReport("no readings");
      if ((await page.locator(BUSY_NOTICE).count()) > 0) throw new ReportBusy("call budget spent");
      if (!response?.ok() || (await report.count()) === 0) {
        throw new Error(`the report page showed no report (status ${response?.status() ?? "none"})`);
      }
      const pdf = await page.pdf({
        format: paper === "a4" ? "A4" : "Letter",
        printBackground: true,
        margin: { top: "10mm", bottom: "10mm", left: "10mm", right: "10mm" },
      });
      return {
        pdf,
        period: await report.getAttribute("data-period"),
        fileName: await report.getAttribute("data-file-name"),
      };
    } finally {
      await context.close();
    }
  });
}
