import { type Browser, expect, test } from "@playwright/test";
import { type AppServer, startAppServer, UNLIMITED_CALL_BUDGET } from "../test/support/app-server";
import { expectNoViolations } from "./axe";
import { hoverFirstReachable } from "./patient";
import { signInThroughSandbox } from "./sign-in";

/**
 * API v3's alerts and alert schedules in a real browser (a server of its own in v3 mode, whatever
 * mode the suite's server runs in): the alerts page, its stacked rows on a phone, the devices page
 * with the override, the alerts on the trace with their tooltip and text table, each page
 * passing axe; the overview's poll for newer readings asks v3's dataRange.
 */

let server: AppServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startAppServer({ ...UNLIMITED_CALL_BUDGET, CGM_API_VERSION: "v3" });
});

test.afterAll(async () => {
  await server?.stop();
});

async function signedIn(browser: Browser, username: string, viewport = { width: 1280, height: 900 }) {
  const page = await (await browser.newContext({ baseURL: server.url, viewport })).newPage();
  await signInThroughSandbox(page, username);
  await page.waitForURL(/\/dashboard/);
  return page;
}

test("the alerts page lists the alerts that sounded, and passes axe on a desktop and a phone", async ({
  browser,
}) => {
  // Two sign-ins and four axe scans, one of a 30-day table: it ran past a minute on a loaded machine.
  test.setTimeout(120_000);
  const page = await signedIn(browser, "SandboxUser2");
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Alerts" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  const table = page.getByRole("table", { name: /alerts? sounded, newest first/ });
  await expect(table).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Sounded for" })).toBeVisible();
  await expectNoViolations(page, "the alerts page");
  await page.getByRole("link", { name: "30 days" }).click();
  await expect(page).toHaveURL(/days=30/);
  await expectNoViolations(page, "the alerts page, 30 days");

  const phone = await signedIn(browser, "SandboxUser2", { width: 360, height: 780 });
  await phone.goto("/dashboard/alerts");
  // Stacked rows: each cell says its column, and nothing runs past the screen.
  await expect(phone.locator('td[data-label="Sounded for"]').first()).toBeVisible();
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoViolations(phone, "the alerts page on a phone");
});

test("the devices page says SandboxUser7's vibrate override, and passes axe", async ({ browser }) => {
  const page = await signedIn(browser, "SandboxUser7");
  await page.goto("/dashboard/devices");
  await expect(page.getByTestId("override").first()).toContainText("vibrate only");
  await expect(page.getByTestId("schedule-active").first()).toBeVisible();
  await expectNoViolations(page, "the devices page (v3)");
});

test("alerts on the trace: a row of the strip, a tooltip, the text table; the poll asks v3", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const polls: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/users/self/dataRange")) polls.push(new URL(r.url()).pathname);
  });
  await signInThroughSandbox(page, "SandboxUser2");
  await page.waitForURL(/\/dashboard/);
  await page.goto("/dashboard?range=24h");
  const strip = page.getByTestId("event-strip");
  const alertMarks = strip.locator(".trace-alerts path");
  await expect(alertMarks.first()).toBeVisible();
  // Alerts that sound minutes apart draw one star over the other: the first the pointer reaches.
  const count = await alertMarks.count();
  expect(await hoverFirstReachable(alertMarks, [...Array(Math.min(count, 8)).keys()])).toBe(true);
  await expect(page.getByText(/alert(?: \(again\))?: (Acknowledged|Cleared) after/).first()).toBeVisible();
  const markers = page.getByTestId("markers-table");
  await markers.getByText("The trace's events, calibrations and alerts as a table").click();
  await expect(
    markers
      .getByRole("cell", {
        name: /^(Urgent low|Low|High|Urgent low soon|Signal loss|No readings|Rising fast|Falling fast) alert/,
      })
      .first(),
  ).toBeVisible();
  await expectNoViolations(page, "the overview with alerts (v3)");
  await expect.poll(() => polls.length).toBeGreaterThan(0);
  expect(polls.every((p) => p === "/api/cgm/v3/users/self/dataRange")).toBe(true);
  await expect(page.getByText("Could not check for newer readings")).toHaveCount(0);
});
