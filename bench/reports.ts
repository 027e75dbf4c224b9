/**
 * The AGP report in a real browser (Debian's Chromium), production build:
 * - time from navigation start to the AGP chart painted, for 14 and 90 days (the chart is drawn
 *   on the server, so it paints with the document: the animation frame in which its percentile
 *   bands first exist);
 * - the PDF: time of GET /api/reports/agp-pdf as the browser downloads it, the first (which starts
 *   the server's Chromium) and then the median of warm renders.
 */
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "../test/support/chromium";

const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 10);
const PDF_RUNS = Number(process.env.BENCH_PDF_RUNS ?? 5);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

const WATCH_AGP = `
  window.__agpPainted = undefined;
  const watchAgp = () => {
    if (document.querySelector('[data-testid="agp-chart"] svg path')) window.__agpPainted = performance.now();
    else requestAnimationFrame(watchAgp);
  };
  requestAnimationFrame(watchAgp);
`;

async function signIn(page: Page, user: string) {
  await page.goto("/");
  await page.getByRole("button", { name: "Sign in with your CGM account" }).click();
  await page.getByLabel("Username").fill(user);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/dashboard/);
}

async function navigationToAgpMs(page: Page, days: number): Promise<number> {
  await page.goto(`/reports?days=${days}`, { waitUntil: "commit" });
  await page.locator('[data-testid="agp-chart"] svg path').first().waitFor();
  await page.waitForFunction(
    () => (window as unknown as { __agpPainted?: number }).__agpPainted !== undefined,
  );
  return page.evaluate(() => (window as unknown as { __agpPainted: number }).__agpPainted);
}

async function pdfMs(page: Page): Promise<number> {
  const t0 = performance.now();
  const res = await page.request.get("/api/reports/agp-pdf?days=14&paper=a4");
  await res.body();
  if (!res.ok()) throw new Error(`PDF: ${res.status()} ${await res.text()}`);
  return performance.now() - t0;
}

export async function reportPages(baseURL: string, user = "SandboxUser1") {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(WATCH_AGP);
    await signIn(page, user);
    console.log(`\nAGP report in Chromium, ${user}, ${RUNS} navigations per period (production build)`);
    for (const days of [14, 90]) {
      await navigationToAgpMs(page, days); // warm
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await navigationToAgpMs(page, days));
      console.log(
        `  ${`${days} days`.padEnd(8)} navigation → AGP painted median ${median(samples).toFixed(0)} ms, ` +
          `max ${Math.max(...samples).toFixed(0)} ms${days === 90 ? " (target ≤ 1000 ms)" : ""}`,
      );
    }
    const first = await pdfMs(page);
    const warm: number[] = [];
    for (let i = 0; i < PDF_RUNS; i++) warm.push(await pdfMs(page));
    console.log(
      `  PDF (14 days, A4): first ${first.toFixed(0)} ms (its browser started by the page views), ` +
        `then median ${median(warm).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms (target ≤ 3000 ms)`,
    );
  } finally {
    await browser.close();
  }
}
