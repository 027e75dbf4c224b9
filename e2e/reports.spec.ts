import { expect, type Page, test } from "@playwright/test";
import { openDashboard } from "./patient";

/**
 * The AGP report as a clinician opens it: its numbers against the summary API for the same
 * period, the population targets, the PDF download, printing, and the account without data.
 */

interface Summary {
  nValues: number;
  sensorActivePercent: number;
  mean: number;
  gmi: number;
  cv: number;
  timeInRanges: Record<"veryLow" | "low" | "inRange" | "high" | "veryHigh", number>;
}

/**
 * The summary API for the page's period, the 14 receiver days up to the newest reading: the
 * comparison API resolves "the last 14 days" to the same window, and answers its exact bounds.
 */
async function summaryOfLast14Days(page: Page): Promise<Summary> {
  return page.evaluate(async () => {
    const { recent } = (await (await fetch("/api/reports/compare?days=14")).json()).comparison;
    const query = new URLSearchParams({ startDate: recent.startDate, endDate: recent.endDate });
    return (await fetch(`/api/reports/summary?${query}`)).json();
  });
}

test("the AGP report shows the summary API's numbers for its 14 days, and changes targets by population", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser1");
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Reports" }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(page.getByRole("heading", { level: 1, name: "Ambulatory Glucose Profile" })).toBeVisible();
  const report = page.getByTestId("agp-report");
  await expect(report).toBeVisible();
  const s = await summaryOfLast14Days(page);

  const stats = page.getByTestId("agp-stats");
  await expect(stats).toContainText("(14 days)");
  await expect(stats).toContainText(`${s.sensorActivePercent.toFixed(1)}%`);
  await expect(stats).toContainText(`${s.nValues} readings`);
  await expect(stats).toContainText(`${Math.round(s.mean)} mg/dL`);
  await expect(stats).toContainText(`${s.gmi.toFixed(1)}%`);
  await expect(stats).toContainText(`${s.cv.toFixed(1)}%`);
  // Shares are rounded together (largest remainder, decimals as the goals need): each within a
  // point of the summary's exact share.
  for (const band of ["veryHigh", "high", "inRange", "low", "veryLow"] as const) {
    const text = (await page.locator(`[data-band="${band}"]`).textContent()) ?? "";
    const shown = Number(/(\d+(?:\.\d+)?)%/.exec(text)?.[1]);
    expect(Math.abs(shown - s.timeInRanges[band])).toBeLessThan(1);
  }
  await expect(page.locator('[data-band="inRange"]')).toContainText("70–180 mg/dL");
  await expect(page.getByTestId("agp-goals")).toContainText("over 70%");

  // The chart, its text alternative, and 14 daily profiles.
  await expect(
    page.getByRole("img", { name: /^Ambulatory glucose profile\. Median glucose by time of day/ }),
  ).toBeVisible();
  await page.getByText("The profile as a table (every hour)").click();
  await expect(
    page.getByRole("table", { name: /Glucose percentiles by hour/ }).locator("tbody tr"),
  ).toHaveCount(24);
  await expect(page.getByTestId("daily-profiles").locator("li")).toHaveCount(14);
  await expect(page.getByRole("heading", { name: "Methods" })).toBeVisible();

  // Pregnancy: another target range, other goals, and no very-high band.
  await page.getByRole("link", { name: "Pregnancy, type 1 diabetes" }).click();
  await expect(page).toHaveURL(/targets=pregnancy/);
  await expect(page.locator('[data-band="inRange"]')).toContainText("63–140 mg/dL");
  await expect(page.locator('[data-band="veryHigh"]')).toHaveCount(0);
  await expect(page.getByTestId("agp-goals")).toContainText("Below 63 mg/dL");
  await expect(page.getByTestId("agp-chart")).toContainText("Target range 63–140 mg/dL");

  // Older or high-risk: the same bands, a goal of over 50 % in range.
  await page.getByRole("link", { name: "Older or high-risk, type 1 or type 2" }).click();
  await expect(page.getByTestId("agp-goals")).toContainText("over 50%");
});

test("the PDF downloads as one page, and the page prints without its controls", async ({ page }) => {
  await openDashboard(page, "SandboxUser2");
  await page.goto("/reports?days=30");
  await expect(page.getByTestId("agp-stats")).toContainText("(30 days)");
  const downloading = page.waitForEvent("download");
  await page.getByTestId("pdf-letter").click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^agp_Patient_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf$/);
  const bytes = await (await download.createReadStream()).toArray();
  const pdf = Buffer.concat(bytes).toString("latin1");
  expect(pdf.startsWith("%PDF-")).toBe(true);
  expect(pdf.match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);

  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("report-controls")).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Views" })).toBeHidden();
  await expect(page.getByTestId("agp-report")).toBeVisible();
  // Issue 14 on paper: time in tight range, and the episodes as a compact table (count, per day,
  // mean duration) with the night share of the lows; mean glucose and night counts stay on screen.
  await expect(page.getByTestId("agp-stats").getByText(/^Time in tight range/)).toBeVisible();
  const episodes = page.getByTestId("agp-episodes");
  await expect(episodes).toBeVisible();
  const level1 = episodes.locator('tr[data-kind="hypoLevel1"]');
  for (const label of ["Count", "Per day", "Mean duration"]) {
    await expect(level1.locator(`td[data-label="${label}"]`)).toBeVisible();
  }
  for (const label of ["Mean glucose", "At night"]) {
    await expect(level1.locator(`td[data-label="${label}"]`)).toBeHidden();
  }
  await expect(page.getByTestId("agp-night-share")).toHaveText(
    /^Episodes of 15 min or more\. \d+ of \d+ lows \(\d+(\.\d)?%\) started at night \(00:00–06:00\)\.$/,
  );
});

test("a period the report cannot cover is explained, with the way back", async ({ page }) => {
  await openDashboard(page, "SandboxUser1");
  await page.goto("/reports?startDay=2026-11-10&endDay=2026-01-01");
  await expect(page.getByRole("alert").filter({ hasText: "cannot be shown" })).toContainText(
    "the first day must not be after the last day",
  );
  await page.getByRole("link", { name: "Show the last 14 days" }).click();
  await expect(page.getByTestId("agp-report")).toBeVisible();
});

test("an account without data gets no report, and says why (SandboxUser6)", async ({ page }) => {
  await openDashboard(page, "SandboxUser6");
  await page.goto("/reports");
  await expect(page.getByTestId("agp-empty")).toContainText("No glucose readings exist");
  await expect(page.getByTestId("agp-report")).toHaveCount(0);
});

test("the GRI with its zone, and the GRI grid with this and the previous period's points", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser1");
  await page.goto("/reports");
  // The AGP's period and the one before are the comparison's two periods (the receiver's days).
  const gri = await page.evaluate(async () => {
    const { recent, earlier } = (await (await fetch("/api/reports/compare?days=14")).json()).comparison;
    return { current: recent, previous: earlier };
  });
  const zone = (g: number) => "ABCDE".charAt(Math.min(4, Math.max(0, Math.ceil(g / 20) - 1)));
  await expect(page.getByTestId("agp-stats")).toContainText(
    `${gri.current.gri.toFixed(1)} · zone ${zone(gri.current.gri)}`,
  );
  const grid = page.getByTestId("gri-grid");
  await expect(grid.getByRole("img", { name: /^GRI grid/ })).toBeVisible();
  await expect(grid.locator("polygon[data-zone]")).toHaveCount(5);
  await expect(grid.locator("svg [data-period]")).toHaveCount(2);
  const rows = grid.getByTestId("gri-table");
  await expect(rows.locator('tr[data-period="current"]')).toContainText(gri.current.gri.toFixed(1));
  await expect(rows.locator('tr[data-period="previous"]')).toContainText(gri.previous.gri.toFixed(1));
  await expect(rows.locator('tr[data-period="previous"] td[data-zone]')).toHaveText(zone(gri.previous.gri));
});

test.describe("on a 360 px phone", () => {
  test.use({ viewport: { width: 360, height: 800 } });

  test("the AGP fits: no sideways scroll, the whole day from 00:00 to 24:00 on screen, labels at least 11 px", async ({
    page,
  }) => {
    await openDashboard(page, "SandboxUser1");
    await page.goto("/reports");
    const chart = page.getByTestId("agp-chart");
    await chart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("agp-360.png") });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const labels = chart.locator("[data-axis]");
    const boxes = await labels.evaluateAll((els) =>
      els.flatMap((el) => {
        const r = el.getBoundingClientRect();
        const shown = getComputedStyle(el).display !== "none";
        return shown ? [{ text: el.textContent, axis: el.getAttribute("data-axis"), ...r.toJSON() }] : [];
      }),
    );
    const x = boxes.filter((b) => b.axis === "x");
    expect(x.map((b) => b.text)).toEqual(["00:00", "06:00", "12:00", "18:00", "24:00"]);
    for (const b of boxes) {
      expect(b.left, `${b.text} starts on screen`).toBeGreaterThanOrEqual(0);
      expect(b.right, `${b.text} ends on screen`).toBeLessThanOrEqual(360);
      expect(b.height, `${b.text} is at least 11 px tall`).toBeGreaterThanOrEqual(11);
    }
    // The clock labels do not overlap one another.
    for (let i = 1; i < x.length; i++) expect(x[i]!.left).toBeGreaterThan(x[i - 1]!.right);
    const fontSizes = await labels.evaluateAll((els) =>
      els.map((el) => Number.parseFloat(getComputedStyle(el).fontSize)),
    );
    expect(Math.min(...fontSizes)).toBeGreaterThanOrEqual(11);
  });
});
