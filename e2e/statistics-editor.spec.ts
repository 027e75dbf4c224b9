import { expect, type Page, test } from "@playwright/test";
import { openDashboard, type SandboxUsername, serviceStatisticsFor } from "./patient";

/**
 * Statistics by time of day in a real browser: the default windows and their results (compared
 * with what the service answers for the same windows and period), a mistake explained beside the
 * form with nothing sent, a fix saved and remembered, and an mmol/L account's bounds in mmol/L.
 */

const PATH = "/reports/statistics";
const SAVE_URL = "/api/reports/statistics-windows";

const windowGroup = (page: Page, n: number) => page.getByRole("group", { name: `Window ${n}` });

interface Together {
  nValues: number;
  hypoglycemiaRisk: string | null;
}

/**
 * The service's v2 answer for Day and Night (54/70/180) together, over the page's period: the 14
 * receiver days up to the newest EGV, as the comparison API resolves "the last 14 days" (and
 * answers its exact bounds). With API v3 the page computes it with the service's method: the same
 * answer.
 */
async function serviceTogether(
  page: Page,
  username: SandboxUsername,
  bounds: [number, number, number],
): Promise<Together> {
  const { recent } = await page.evaluate(
    async () => (await (await fetch("/api/reports/compare?days=14")).json()).comparison,
  );
  return serviceStatisticsFor<Together>(username, { startDate: recent.startDate, endDate: recent.endDate }, [
    { name: "Day", startTime: "06:00:00", endTime: "22:00:00", bounds },
    { name: "Night", startTime: "22:00:00", endTime: "06:00:00", bounds },
  ]);
}

test("SandboxUser1: default windows and their results, a mistake caught before sending, a fix saved and remembered", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser1");
  await page.goto(PATH);
  await expect(page.getByRole("heading", { level: 1, name: "Statistics by time of day" })).toBeVisible();

  // The default windows.
  await expect(page.getByTestId("windows-default-note")).toBeVisible();
  await expect(page.getByTestId("window-row")).toHaveCount(2);
  await expect(windowGroup(page, 1).getByLabel("Name")).toHaveValue("Day");
  await expect(windowGroup(page, 1).getByLabel("Start")).toHaveValue("06:00");
  await expect(windowGroup(page, 1).getByLabel("End")).toHaveValue("22:00");
  await expect(windowGroup(page, 2).getByLabel("Name")).toHaveValue("Night");
  await expect(windowGroup(page, 2).getByLabel("Urgent low (mg/dL)")).toHaveValue("54");
  await expect(windowGroup(page, 2).getByLabel("Low (mg/dL)", { exact: true })).toHaveValue("70");
  await expect(windowGroup(page, 2).getByLabel("High (mg/dL)")).toHaveValue("180");

  // Their results: one row per window, and the service's answer for both together. The data is
  // live: should a reading arrive between the page and the test's own request, reload.
  const results = page.getByRole("region", { name: /Statistics by window \(v2\)/ });
  await expect(results.getByTestId("window-result")).toHaveCount(2);
  await expect(
    results.getByRole("rowheader", { name: /^Day 06:00–22:00 · 54 \/ 70 \/ 180 mg\/dL/ }),
  ).toBeVisible();
  let together: Together | undefined;
  await expect(async () => {
    together = await serviceTogether(page, "SandboxUser1", [54, 70, 180]);
    const shown = (await page.getByTestId("together-readings").textContent())?.trim();
    if (shown !== String(together.nValues)) await page.reload();
    expect(shown).toBe(String(together.nValues));
  }).toPass({ timeout: 30_000 });
  // The windows' own readings, as the service counted them, make up the whole.
  const perWindow = await page.getByTestId("window-readings").allTextContents();
  expect(perWindow.reduce((n, t) => n + Number(t), 0)).toBe(together!.nValues);
  await expect(page.getByTestId("hypo-risk")).toHaveAttribute(
    "data-risk",
    together!.hypoglycemiaRisk ?? "none",
  );

  // Overlapping windows: the message beside the form, and nothing sent.
  const saves: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes(SAVE_URL) && r.method() === "POST") saves.push(r.url());
  });
  await windowGroup(page, 1).getByLabel("End").fill("23:00");
  await page.getByRole("button", { name: "Save windows" }).click();
  const errors = page.getByTestId("windows-errors");
  await expect(errors).toBeVisible();
  await expect(errors).toHaveAttribute("role", "alert");
  await expect(errors, "focus moves to the summary of what to correct").toBeFocused();
  await expect(errors).toContainText('time ranges "Day" and "Night" overlap');
  await expect(page.getByTestId("windows-list-errors")).toContainText(
    'time ranges "Day" and "Night" overlap',
  );
  // The time inputs point at the message.
  const describedBy = await windowGroup(page, 1).getByLabel("End").getAttribute("aria-describedby");
  expect(describedBy).toBeTruthy();
  await expect(page.locator(`[id="${describedBy}"]`)).toContainText("overlap");
  // Bounds out of order are shown on their row.
  await windowGroup(page, 2).getByLabel("Urgent low (mg/dL)").fill("75");
  await expect(windowGroup(page, 2).getByTestId("window-row-errors")).toContainText(
    'bounds of "Night" must satisfy urgentLow < low < high (got 75, 70, 180)',
  );
  await expect(windowGroup(page, 2).getByLabel("Urgent low (mg/dL)")).toHaveAttribute("aria-invalid", "true");
  expect(saves, "nothing was sent while the windows were invalid").toEqual([]);

  // Fixed: saved, and the results follow.
  await windowGroup(page, 1).getByLabel("End").fill("22:00");
  await windowGroup(page, 2).getByLabel("Name").fill("Sleep");
  await windowGroup(page, 2).getByLabel("Urgent low (mg/dL)").fill("54");
  await windowGroup(page, 2).getByLabel("Low (mg/dL)", { exact: true }).fill("80");
  await expect(errors).toHaveCount(0);
  await page.getByRole("button", { name: "Save windows" }).click();
  await expect(page.getByTestId("windows-status")).toContainText("Saved");
  expect(saves).toHaveLength(1);
  await expect(
    results.getByRole("rowheader", { name: /^Sleep 22:00–06:00 · 54 \/ 80 \/ 180 mg\/dL/ }),
  ).toBeVisible();

  // Remembered.
  await page.reload();
  await expect(page.getByTestId("windows-default-note")).toHaveCount(0);
  await expect(windowGroup(page, 2).getByLabel("Name")).toHaveValue("Sleep");
  await expect(windowGroup(page, 2).getByLabel("Low (mg/dL)", { exact: true })).toHaveValue("80");
  await expect(results.getByRole("rowheader", { name: /^Sleep/ })).toBeVisible();

  // v1: one range per window, low to high.
  await page.getByRole("link", { name: "v1: one range per window" }).click();
  const v1 = page.getByRole("region", { name: /Statistics by window \(v1\)/ });
  await expect(v1.getByRole("rowheader", { name: /^Sleep 22:00–06:00 · 80–180 mg\/dL/ })).toBeVisible();
  await expect(v1.getByRole("columnheader", { name: "Urgent low" })).toHaveCount(0);
});

test("SandboxUser3 (mmol/L): bounds in mmol/L, in the editor and the results", async ({ page }) => {
  await openDashboard(page, "SandboxUser3", { unit: "mmol/L" });
  await page.goto(PATH);
  const night = windowGroup(page, 2);
  await expect(night.getByLabel("Urgent low (mmol/L)")).toHaveValue("3.0");
  await expect(night.getByLabel("Low (mmol/L)", { exact: true })).toHaveValue("3.9");
  await expect(night.getByLabel("High (mmol/L)")).toHaveValue("10.0");
  const results = page.getByRole("region", { name: /Statistics by window \(v2\)/ });
  await expect(
    results.getByRole("rowheader", { name: /^Night 22:00–06:00 · 3\.0 \/ 3\.9 \/ 10\.0 mmol\/L/ }),
  ).toBeVisible();
  // Means in mmol/L, one decimal.
  const together = page.getByTestId("together-result");
  await expect(together.getByRole("cell").nth(5)).toHaveText(/^\d{1,2}\.\d$/);
  const shown = Number(await page.getByTestId("together-readings").textContent());
  const service = await serviceTogether(page, "SandboxUser3", [54 / 18.0182, 70 / 18.0182, 180 / 18.0182]);
  expect(Math.abs(service.nValues - shown)).toBeLessThanOrEqual(1);
});
