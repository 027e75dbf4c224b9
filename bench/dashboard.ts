/**
 * The patient's dashboard in a real browser (Debian's Chromium), production build:
 * - time from navigation start to the trace painted, for the 24-hour, 14-day and 90-day views,
 *   each beside two floors measured in the same run, from the same server, in the same browser,
 *   navigated the same way: a static file's first contentful paint (issue 17's targets are ratios
 *   to it), and the app's lightest page's (the signed-out home page: the same document, styles and
 *   scripts as every page, no data, no session), which says what the framework alone costs;
 * - bytes of data sent to the browser for the 14-day view (the document and every fetch/RSC
 *   response, as encoded on the wire; the static JS and CSS are cached after the first visit and
 *   are reported apart).
 * "Painted" is the later of the animation frame in which the trace's line first exists in the DOM
 * and the first contentful paint (Chromium paints nothing before it, so a line that exists earlier
 * is not yet on screen): the server-drawn trace, and, reported apart, recharts' interactive chart.
 * - the overview's server time (GET /api/dashboard/overview, its Server-Timing) for 90 days against
 *   14 days, the floor, in the same run: a first 90-day view reads every day, later ones only
 *   the days not yet finished (lib/sync/finished-days.ts).
 */
import { type BrowserContext, chromium, type Page } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "../test/support/chromium";

const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 10);

/** Issue 17's targets: the trace painted within this many times the static floor. */
const VIEWS = [
  { label: "24 hours", range: "24h", ratio: 1.5 },
  { label: "14 days", range: "14d", ratio: 1.5 },
  { label: "90 days", range: "90d", ratio: 2 },
] as const;

/** The floor: a static file of the same server, no script, no data (public/robots.txt). */
const FLOOR_PATH = "/robots.txt";

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

async function signIn(page: Page, user: string) {
  await page.goto("/");
  await page.getByRole("button", { name: "Sign in with your CGM account" }).click();
  await page.getByLabel("Username").fill(user);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/dashboard/);
}

// Installed before every page's own scripts: notes the animation frame (time since navigation
// start) in which the server-drawn trace, and then recharts' line, first exist; that frame paints them.
const WATCH_PAINTS = `
  window.__paints = {};
  const watch = () => {
    if (location.pathname !== "/dashboard") return;
    const now = performance.now();
    const trace = document.querySelector('[data-testid="glucose-trace"]');
    if (trace && !__paints.preview && trace.querySelector(".trace-preview path")) __paints.preview = now;
    if (trace && !__paints.chart && trace.querySelector(".recharts-line-curve")) __paints.chart = now;
    if (!__paints.chart) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
`;

interface Paints {
  /** The trace on screen: the later of its line existing and the first contentful paint. */
  preview: number;
  /** recharts' interactive chart, after hydration. */
  chart: number;
  /** The document's HTML, decoded (kB). */
  html: number;
}

/** The page's first contentful paint (ms since navigation start), once Chromium has reported it. */
async function firstContentfulPaint(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
  );
  return (await handle.jsonValue()) as number;
}

async function navigationToChartMs(page: Page, range: string): Promise<Paints> {
  await page.goto(`/dashboard?range=${range}`, { waitUntil: "commit" });
  await page.locator('[data-testid="glucose-trace"] .recharts-line-curve').first().waitFor();
  const fcp = await firstContentfulPaint(page);
  const paints = await page.evaluate(() => (window as unknown as { __paints: Partial<Paints> }).__paints);
  const html = await page.evaluate(
    () =>
      (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).decodedBodySize / 1000,
  );
  // The line exists at whichever came first (a page without the preview draws only recharts').
  const chart = paints.chart ?? Number.NaN;
  const line = Math.min(paints.preview ?? chart, chart);
  return { preview: Math.max(line, fcp), chart: Math.max(chart, fcp), html };
}

/** The floor: first contentful paint of the static file, navigated as the dashboard is. */
async function floorMs(page: Page, path = FLOOR_PATH): Promise<number> {
  await page.goto(path, { waitUntil: "commit" });
  return firstContentfulPaint(page);
}

/** The app's own floor: the signed-out home page, in a context without a session. */
async function appPageFloorMs(context: BrowserContext): Promise<number[]> {
  const page = await context.newPage();
  await floorMs(page, "/"); // warm
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await floorMs(page, "/"));
  await page.close();
  return samples;
}

async function bytesOf14Days(page: Page) {
  let data = 0;
  let assets = 0;
  const pending: Promise<void>[] = [];
  page.on("requestfinished", (request) => {
    pending.push(
      request.sizes().then((s) => {
        const bytes = s.responseBodySize + s.responseHeadersSize;
        if (/\/_next\/static\//.test(request.url())) assets += bytes;
        else data += bytes;
      }),
    );
  });
  await page.goto("/dashboard?range=14d");
  await page.locator('[data-testid="glucose-trace"] .recharts-line-curve').first().waitFor();
  await page.waitForLoadState("load");
  await page.waitForTimeout(500);
  await Promise.all(pending);
  return { data, assets };
}

/** The overview's server time of one request: the parts of its Server-Timing added up. */
async function overviewServerMs(context: BrowserContext, range: string): Promise<number> {
  const res = await context.request.get(`/api/dashboard/overview?range=${range}`);
  if (!res.ok()) throw new Error(`overview ${range}: ${res.status()}`);
  await res.body();
  const timing = res.headers()["server-timing"] ?? "";
  return [...timing.matchAll(/dur=([\d.]+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
}

async function overviewServerTimes(context: BrowserContext) {
  const cold = await overviewServerMs(context, "90d");
  const samples = { "14d": [] as number[], "90d": [] as number[] };
  for (const range of ["14d", "90d"] as const) await overviewServerMs(context, range); // warm
  for (let i = 0; i < RUNS; i++)
    for (const range of ["14d", "90d"] as const) samples[range].push(await overviewServerMs(context, range));
  const floor = median(samples["14d"]);
  const warm = median(samples["90d"]);
  console.log(
    `  overview server time (Server-Timing), ${RUNS} each: 14 days (floor) median ${floor.toFixed(0)} ms; ` +
      `90 days warm median ${warm.toFixed(0)} ms = ${(warm / floor).toFixed(2)}× the floor (target ≤ 1.5×); ` +
      `first 90-day view of the session ${cold.toFixed(0)} ms`,
  );
}

export async function dashboardPages(baseURL: string, user = "SandboxUser1") {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(WATCH_PAINTS);
    await signIn(page, user);
    console.log(`\nDashboard in Chromium, ${user}, ${RUNS} navigations per view (production build)`);
    await floorMs(page); // warm
    const floors: number[] = [];
    for (let i = 0; i < RUNS; i++) floors.push(await floorMs(page));
    const floor = median(floors);
    console.log(
      `  floor: static file ${FLOOR_PATH}, first contentful paint median ${floor.toFixed(0)} ms, ` +
        `max ${Math.max(...floors).toFixed(0)} ms`,
    );
    const signedOut = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
    const appFloors = await appPageFloorMs(signedOut);
    await signedOut.close();
    const appFloor = median(appFloors);
    console.log(
      `  the app's lightest page (signed-out home, no data): first contentful paint median ${appFloor.toFixed(0)} ms ` +
        `= ${(appFloor / floor).toFixed(2)}× the static file's, max ${Math.max(...appFloors).toFixed(0)} ms`,
    );
    await overviewServerTimes(context);
    for (const view of VIEWS) {
      await navigationToChartMs(page, view.range); // warm: first compile of the route's code paths
      const samples: Paints[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await navigationToChartMs(page, view.range));
      const trace = median(samples.map((p) => p.preview));
      const chart = median(samples.map((p) => p.chart));
      console.log(
        `  ${view.label.padEnd(9)} navigation → trace painted median ${trace.toFixed(0)} ms, ` +
          `max ${Math.max(...samples.map((p) => p.preview)).toFixed(0)} ms = ${(trace / floor).toFixed(2)}× ` +
          `the floor's ${floor.toFixed(0)} ms (target ≤ ${view.ratio}×); ` +
          `${(trace / appFloor).toFixed(2)}× the app's lightest page; ` +
          `interactive chart (recharts) median ${chart.toFixed(0)} ms = ${(chart / floor).toFixed(2)}×; ` +
          `HTML ${median(samples.map((p) => p.html)).toFixed(0)} kB decoded`,
      );
    }
    const fresh = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
    await fresh.addCookies(await context.cookies());
    const { data, assets } = await bytesOf14Days(await fresh.newPage());
    console.log(
      `  bytes to the browser, 14 days: data ${(data / 1000).toFixed(1)} kB (target ≤ 150 kB), ` +
        `static JS/CSS on a first visit ${(assets / 1000).toFixed(1)} kB (compressed, cached after)`,
    );
    await fresh.close();
  } finally {
    await browser.close();
  }
}
