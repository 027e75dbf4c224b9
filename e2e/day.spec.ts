import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { signInThroughSandbox } from "./sign-in";

/**
 * The daily view in a real browser against the embedded sandbox. SandboxUser1 lives in New York
 * and was at home on 2 November 2025, when US clocks went back an hour at 02:00: that day has 25
 * hours of readings and logged meals, so it is the day the form jumps to.
 */

const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const FALL_BACK_DAY = "2025-11-02";

const dayBefore = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

async function expectNoAxeViolations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  expect(result.violations).toEqual([]);
}

async function expectChart(page: Page) {
  await expect(page.getByTestId("glucose-trace").locator("svg.recharts-surface").first()).toBeVisible();
}

test("the daily view shows the latest day, steps back a day and jumps to a day with the form", async ({
  page,
}) => {
  await signInThroughSandbox(page, "SandboxUser1");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Daily" }).click();
  await expect(page).toHaveURL(/\/dashboard\/day$/);

  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(/^[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ \d{4}$/);
  await expectChart(page);
  await expect(page.getByTestId("trace-caption")).toContainText(/\d+ readings? from \d\d:\d\d to \d\d:\d\d/);
  // The newest day has nothing after it.
  await expect(page.getByRole("link", { name: /Next day/ })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // Previous: a real link, reached and followed with the keyboard.
  const latest = await page.getByLabel("Go to a day").inputValue();
  expect(latest).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const shownLatest = await heading.textContent();
  const previous = page.getByRole("link", { name: /Previous day/ });
  await previous.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/day\\?date=${dayBefore(latest)}$`));
  await expect(heading).not.toHaveText(shownLatest ?? "");
  await expect(page.getByLabel("Go to a day")).toHaveValue(dayBefore(latest));
  await expectChart(page);

  // The form jumps to the day the clocks went back.
  await page.getByLabel("Go to a day").fill(FALL_BACK_DAY);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/day\\?date=${FALL_BACK_DAY}$`));
  await expect(heading).toHaveText("Sunday 2 November 2025");
  await expect(page.getByTestId("clock-change-note")).toHaveText(
    "Clocks went back 1 h at 02:00 — the repeated hour is shown in order of real time.",
  );
  await expectChart(page);
  const events = page.getByRole("region", { name: /events?, in the order they happened/ });
  await expect(events.getByRole("row").nth(1)).toBeVisible();
  await expect(events.getByRole("columnheader", { name: "Time (receiver)" })).toBeVisible();
  // The table alternative holds the repeated hour once, with both runs of readings.
  await page.getByText("The trace as a table (per hour)").click();
  await expect(page.getByRole("row", { name: /^2025-11-02 01:00/ })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoAxeViolations(page);
});

test("a date that is not a day, or has no data, gets a message and a way back", async ({ page }) => {
  await signInThroughSandbox(page, "SandboxUser1");
  await expect(page).toHaveURL(/\/dashboard$/);

  const invalid = await page.goto("/dashboard/day?date=2026-02-30");
  expect(invalid?.status()).toBe(200);
  await expect(page.getByTestId("day-invalid")).toHaveText(
    "“2026-02-30” is not a date: there is no such day in the calendar.",
  );
  await expectNoAxeViolations(page);

  await page.goto("/dashboard/day?date=2000-01-01");
  await expect(page.getByRole("heading", { name: "No data for this day" })).toBeVisible();
  await expect(page.getByTestId("day-outside")).toContainText("before your first reading");
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Show your latest day" }).click();
  await expect(page).toHaveURL(/\/dashboard\/day$/);
  await expectChart(page);
});
