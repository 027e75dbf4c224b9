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

/** As the page writes a percentage: one decimal below 1 %, whole numbers otherwise. */
const percentText = (p: number) => (p < 1 ? `${p.toFixed(1)}%` : `${Math.round(p)}%`);

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
  for (const band of ["veryHigh", "high", "inRange", "low", "veryLow"] as const) {
    await expect(page.locator(`[data-band="${band}"]`)).toContainText(percentText(s.timeInRanges[band]));
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
  expect(download.suggestedFilename()).toMatch(/^agp-report-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf$/);
  const bytes = await (await download.createReadStream()).toArray();
  const pdf = Buffer.concat(bytes).toString("latin1");
  expect(pdf.startsWith("%PDF-")).toBe(true);
  expect(pdf.match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);

  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("report-controls")).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Views" })).toBeHidden();
  await expect(page.getByTestId("agp-report")).toBeVisible();
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
