import { expect, type Page, test } from "@playwright/test";
import { openDashboard, serviceDataRange } from "./patient";

/**
 * The comparison of two periods in a real browser: the table shows what the comparison API
 * answers for the same request (the sandbox is live, so the screen is compared with the API, not
 * with numbers written down today), the attribution's sentences are there, and the 30-day choice
 * compares 30 days.
 */

interface Side {
  startDate: string;
  endDate: string;
  patientDays?: { firstDay: string; lastDay: string };
  timeInRanges: { inRange: number } | null;
  gri: number | null;
}
interface Api {
  comparison: {
    earlier: Side;
    recent: Side;
    attribution: Array<{ band: string; sentence: string | null }>;
  } | null;
}

const api = (page: Page, query: string) =>
  page.evaluate(async (q) => (await fetch(`/api/reports/compare?${q}`)).json() as Promise<Api>, query);

const inRangeCell = (page: Page, period: "earlier" | "recent") =>
  page.getByTestId("comparison-table").locator(`tr[data-metric="inRange"] td[data-period="${period}"]`);

/**
 * The page and the API agree on the periods (a new reading between the two requests moves both
 * windows by five minutes: then the page is drawn again), and the table's time in range is the API's.
 */
async function expectTableMatchesApi(page: Page, query: string) {
  let answer: Api | undefined;
  await expect(async () => {
    answer = await api(page, query);
    const shownStart = await page
      .getByTestId("compare-periods")
      .locator('dd[data-period="recent"] time')
      .first()
      .getAttribute("datetime");
    // Periods chosen as days are shown as the receiver's days; systemTime windows as UTC times.
    const recent = answer.comparison?.recent;
    const expected = recent?.patientDays?.firstDay ?? `${recent?.startDate}Z`;
    if (shownStart !== expected) await page.reload();
    expect(shownStart).toBe(expected);
  }).toPass({ timeout: 30_000 });
  const c = answer!.comparison!;
  await expect(inRangeCell(page, "earlier")).toHaveText(`${c.earlier.timeInRanges!.inRange.toFixed(1)}%`);
  await expect(inRangeCell(page, "recent")).toHaveText(`${c.recent.timeInRanges!.inRange.toFixed(1)}%`);
  return c;
}

/** The page lists exactly the API's sentences, or says that no share changed enough. */
async function expectAttributionOfApi(page: Page, c: NonNullable<Api["comparison"]>): Promise<number> {
  const sentences = c.attribution.flatMap((a) => (a.sentence ? [a.sentence] : []));
  if (sentences.length > 0) {
    await expect(page.getByTestId("attribution").getByRole("listitem")).toHaveText(sentences);
  } else {
    await expect(page.getByTestId("attribution-none")).toBeVisible();
  }
  return sentences.length;
}

test("SandboxUser2: both periods' time in range as the API answers, the attribution, and 30 days", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser2");
  await page.getByRole("link", { name: "Reports", exact: true }).waitFor();
  await page.goto("/reports/compare");
  await expect(page.getByRole("heading", { level: 1, name: "Compare two periods" })).toBeVisible();
  await expect(page.getByRole("row", { name: /Time in range \(70–180 mg\/dL\)/ })).toBeVisible();

  const c = await expectTableMatchesApi(page, "days=14");
  const sentences14 = await expectAttributionOfApi(page, c);
  if (sentences14 > 0) {
    await expect(page.getByTestId("attribution").getByRole("listitem").first()).toHaveText(
      /percentage points?, (mostly between \d\d:00 and \d\d:00|spread over the day)/,
    );
  }

  // The change column says the direction in words, not only by colour or sign.
  await expect(
    page.getByTestId("comparison-table").locator('tr[data-metric="inRange"] td[data-period="change"]'),
  ).toHaveText(/^(▲ up \d+\.\d points?(✓, better)?|▼ down \d+\.\d points?(!, worse)?|no change)$/);

  await page.getByRole("link", { name: "30 days" }).click();
  await expect(page).toHaveURL(/\/reports\/compare\?days=30$/);
  await expect(page.getByRole("link", { name: "30 days" })).toHaveAttribute("aria-current", "true");
  await expect(page.getByText("The last 30 days of your data")).toBeVisible();
  const c30 = await expectTableMatchesApi(page, "days=30");
  const { firstDay, lastDay } = c30.recent.patientDays!;
  expect(
    (Date.parse(lastDay) - Date.parse(firstDay)) / 86_400_000 + 1,
    "30 days on the receiver's clock",
  ).toBe(30);
  const sentences30 = await expectAttributionOfApi(page, c30);
  // User2's nights differ from period to period: some share moves by a point or more (in about
  // 59 of 60 fortnights; should this one be the exception, the 30 days carry the sentence).
  expect(sentences14 + sentences30, "an attribution sentence on the page").toBeGreaterThan(0);
});

test("the GRI with its zone for both periods, and both periods on one GRI grid", async ({ page }) => {
  await openDashboard(page, "SandboxUser2");
  await page.goto("/reports/compare");
  const c = await expectTableMatchesApi(page, "days=14");
  const zone = (g: number) => "ABCDE".charAt(Math.min(4, Math.max(0, Math.ceil(g / 20) - 1)));
  for (const period of ["earlier", "recent"] as const) {
    const g = c[period].gri!;
    await expect(
      page.getByTestId("comparison-table").locator(`tr[data-metric="gri"] td[data-period="${period}"]`),
    ).toHaveText(`${g.toFixed(1)} · zone ${zone(g)}`);
    await expect(
      page.getByTestId("gri-table").locator(`tr[data-period="${period}"] td[data-zone]`),
    ).toHaveText(zone(g));
  }
  const grid = page.getByTestId("gri-grid");
  await expect(grid.getByRole("img", { name: /Recent period: GRI .*Earlier period: GRI/ })).toBeVisible();
  await expect(grid.locator("svg g[data-period]")).toHaveCount(2);
});

test("a recent period at the start of the data: the earlier period is empty and said so", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser1");
  const start = (await serviceDataRange("SandboxUser1")).egvs!.start.systemTime;
  const day = start.slice(0, 10);
  await page.goto(`/reports/compare?startDate=${day}&endDate=${day}`);
  await expect(page.getByTestId("period-empty")).toHaveText(/earlier period holds no readings/);
  // Neither the metrics nor the goals have an earlier column.
  await expect(page.getByRole("columnheader", { name: "Earlier period" })).toHaveCount(0);
  await expect(
    page.getByRole("table", { name: /Each metric/ }).getByRole("columnheader", { name: "Recent period" }),
  ).toBeVisible();
  await expect(
    page.getByRole("table", { name: /Consensus goals/ }).getByRole("columnheader", { name: "Recent period" }),
  ).toBeVisible();
});

test("SandboxUser6 has nothing to compare", async ({ page }) => {
  await openDashboard(page, "SandboxUser6");
  await page.goto("/reports/compare");
  await expect(page.getByTestId("empty-state")).toBeVisible();
});

test("a period longer than 90 days is refused on the page, with the way on", async ({ page }) => {
  await openDashboard(page, "SandboxUser1");
  await page.goto("/reports/compare?startDate=2026-01-01&endDate=2026-06-01");
  await expect(page.getByTestId("compare-invalid")).toContainText("at most 90 days");
  await expect(page.getByRole("link", { name: "14 days" })).toBeVisible();
});
