import { expect, test } from "@playwright/test";
import { openDashboard } from "./patient";

/**
 * The consensus goals, judged where numbers are judged: the overview says first the most urgent
 * unmet goal in words, the time in ranges lists the cumulative goals each met or not met (in words,
 * not colour alone), the daily view and the comparison judge the same way, and a custom display
 * band is said to shade the trace only.
 */

const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

test("SandboxUser2's overview says at once that time below 54 mg/dL is far above its goal", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser2");
  const headline = page.getByTestId("goal-headline");
  await expect(headline).toBeVisible();
  await expect(headline).toContainText("Goal not met");
  const sentence = (await page.getByTestId("goal-sentence").textContent()) ?? "";
  const [, percent, times] =
    sentence.match(/^Time below 54 mg\/dL is ([\d.]+)% — (\w+) times the goal of under 1%\.$/) ?? [];
  expect(NUMBER_WORDS.indexOf(times ?? "")).toBe(Math.floor(Number(percent)));
  expect(Number(percent)).toBeGreaterThanOrEqual(2);
  // At the top: above the latest glucose, and the first thing after the page's heading.
  const headlineBox = (await headline.boundingBox())!;
  const latestBox = (await page.getByTestId("latest-glucose").boundingBox())!;
  expect(headlineBox.y).toBeLessThan(latestBox.y);
  // The goals list agrees: the same value, not met, in words.
  const row = page.getByTestId("tir-goals").locator('[data-goal="timeBelow54"]');
  await expect(row).toContainText(`${percent}%`);
  await expect(row).toContainText("✗ not met");
  await expect(page.getByTestId("tir-goals").locator('[data-goal="timeBelow70"]')).toContainText("not met");
  await expect(page.getByTestId("time-in-range")).not.toContainText("Target under");
});

test("SandboxUser1's low bands do not look met when the cumulative below 70 is not", async ({ page }) => {
  await openDashboard(page, "SandboxUser1");
  const goals = page.getByTestId("tir-goals");
  const below70 = goals.locator('[data-goal="timeBelow70"]');
  await expect(below70).toContainText("Below 70 mg/dL");
  await expect(below70).toContainText("under 4%");
  // The row: what is measured, the goal, the value, met or not.
  const value = Number(((await below70.locator("td").nth(1).textContent()) ?? "").replace("%", ""));
  const met = (await below70.getAttribute("data-met")) === "true";
  // The shown value never contradicts the judgement (3.6% is not shown as "4%").
  expect(met).toBe(value < 4);
  await expect(below70).toContainText(met ? "✓ met" : "✗ not met");
  // The bands beside it add up to the goal time as shown.
  const band = async (key: string) =>
    Number(((await page.locator(`[data-range="${key}"] .text-lg`).textContent()) ?? "").replace("%", ""));
  expect(Math.abs((await band("low")) + (await band("veryLow")) - value)).toBeLessThan(1e-9);
  if (!met) await expect(page.getByTestId("goal-headline")).toContainText(/[Tt]ime below 70 mg\/dL/);
});

test("the daily view judges the one day against the goals, and says it is one day", async ({ page }) => {
  await openDashboard(page, "SandboxUser2");
  await page.goto("/dashboard/day");
  const goals = page.getByTestId("tir-goals");
  await expect(goals).toContainText("This day against the consensus goals");
  await expect(goals).toContainText("One day judged alone");
  await expect(goals.locator("[data-met]")).not.toHaveCount(0);
  for (const row of await goals.locator("[data-met]").all()) {
    const met = (await row.getAttribute("data-met")) === "true";
    await expect(row).toContainText(met ? "✓ met" : "✗ not met");
  }
});

test("the comparison says for each period whether each goal was met", async ({ page }) => {
  await openDashboard(page, "SandboxUser2");
  await page.goto("/reports/compare");
  const table = page.getByTestId("compare-goals");
  await expect(table.locator('[data-goal="timeBelow54"] [data-period="recent"]')).toContainText("not met");
  await expect(table.locator('[data-goal="timeBelow70"] [data-period="earlier"]')).toContainText(/met/);
});

test("a custom display band is said to shade the trace only, and the numbers keep the consensus ranges", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser5");
  await expect(page.getByText("The target range shades the glucose trace only.")).toBeVisible();
  await page.getByLabel("Target low (mg/dL)").fill("80");
  await page.getByLabel("Target high (mg/dL)").fill("140");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("trace-caption")).toContainText(
    "Target range 80–140 mg/dL shaded: your display setting, shading only. Time in ranges and goals use the consensus range 70–180 mg/dL.",
  );
  await expect(page.getByTestId("time-in-range").locator('[data-range="inRange"]')).toContainText(
    "70–180 mg/dL",
  );
  // Back to the consensus band for the other tests of this account.
  await page.getByLabel("Target low (mg/dL)").fill("70");
  await page.getByLabel("Target high (mg/dL)").fill("180");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("trace-caption")).toContainText("Target range 70–180 mg/dL shaded.");
});
