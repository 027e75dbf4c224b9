import { expect, type Page, test } from "@playwright/test";
import { expectNoViolations } from "./axe";
import { openDashboard, serviceDataRange } from "./patient";

/**
 * WCAG 2.2 AA in the browser: axe-core (the rules tagged for 2.0, 2.1 and 2.2 at levels A and AA)
 * on every page a patient sees, in light and dark, at a phone's width, with data and without; and
 * the keyboard: every stop from the top of the dashboard to its Unit setting shows where it is.
 */

/** Opens the trace's two tables, so their content is checked too. */
async function openTraceTables(page: Page) {
  for (const summary of await page
    .getByRole("region", { name: "Glucose trace" })
    .locator("details > summary")
    .all()) {
    await summary.click();
  }
  await expect(page.locator("details[open]")).not.toHaveCount(0);
}

test("signed out: the home page and the sign-in error page", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoViolations(page, "the home page");
  await page.goto("/auth/error?reason=access_denied");
  await expect(page.getByRole("heading", { name: "You chose not to share your data" })).toBeVisible();
  await expectNoViolations(page, "the sign-in error page");
  await page.goto("/auth/error?reason=anything-else");
  await expect(page.getByRole("heading", { name: "Sign-in was not completed" })).toBeVisible();
  await expectNoViolations(page, "the sign-in error page's fallback");
});

test("the clinician pages: sign-up (with a mistake), sign-in, and the clinic with a new invitation", async ({
  page,
}) => {
  await page.goto("/clinic/sign-up");
  await expect(page.getByRole("button", { name: "Create a demo clinic" })).toBeVisible();
  await expectNoViolations(page, "the clinic sign-up page");
  await page.goto("/clinic/sign-up?error=email_taken");
  await expect(page.getByTestId("form-error")).toBeVisible();
  await expectNoViolations(page, "the clinic sign-up page with a mistake");
  await page.goto("/clinic/sign-in");
  await expectNoViolations(page, "the clinician sign-in page");
  await page.goto("/clinic/sign-up");
  await page.getByLabel("Your name").fill("Dr Axe");
  await page.getByLabel("Clinic name").fill("Accessible Clinic");
  await page.getByLabel("Email").fill(`axe-${Date.now()}@clinic.example`);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create clinic" }).click();
  await page.getByLabel("Their email").fill(`axe-invited-${Date.now()}@clinic.example`);
  await page.getByRole("button", { name: "Create invitation" }).click();
  await expect(page.getByTestId("invitation-link")).toBeVisible();
  await expectNoViolations(page, "the clinic page with a new invitation");
  await page.goto(await page.getByTestId("invitation-link").inputValue());
  await expectNoViolations(page, "the invitation's page");
});

test("the demo clinic, and a patient on the clinic page (403)", async ({ page }) => {
  await page.goto("/clinic/sign-up");
  await page.getByRole("button", { name: "Create a demo clinic" }).click();
  await expect(page.getByTestId("demo-password")).toBeVisible();
  await expectNoViolations(page, "the demo clinic");
  await page.goto("/dashboard");
  await expect(page.getByTestId("clinician-notice")).toBeVisible();
  await expectNoViolations(page, "the dashboard of a clinician");
  await page.context().clearCookies();
  await openDashboard(page, "SandboxUser6");
  await page.goto("/clinic");
  await expect(page.getByTestId("clinic-forbidden")).toBeVisible();
  await expectNoViolations(page, "the clinic page of a patient");
});

test("the dashboard over 24 hours and 14 days, its tables open (mmol/L, calibrations, events)", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser3", { unit: "mmol/L" });
  await expect(page.getByTestId("glucose-trace").locator(".recharts-surface")).toBeVisible();
  await expectNoViolations(page, "the dashboard, 24 h");
  await page.goto("/dashboard?range=14d");
  await expect(page.getByTestId("trace-caption")).toContainText("Last 14 days");
  await expect(page.getByTestId("event-strip").locator(".recharts-surface")).toBeVisible();
  await openTraceTables(page);
  await expectNoViolations(page, "the dashboard, 14 days, tables open");
});

test("the overview with an unmet goal said first, and the daily view's goals (SandboxUser2)", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser2");
  await expect(page.getByTestId("goal-headline")).toBeVisible();
  await expect(page.getByTestId("tir-goals")).toBeVisible();
  await expectNoViolations(page, "the dashboard with an unmet goal");
  await page.goto("/dashboard/day");
  await expect(page.getByTestId("tir-goals")).toBeVisible();
  await expectNoViolations(page, "the daily view with its goals");
});

test("the events, calibrations, devices and alerts pages", async ({ page }) => {
  await openDashboard(page, "SandboxUser3", { unit: "mmol/L" });
  await page.goto("/dashboard/events?deleted=show");
  await expect(page.getByRole("table", { name: /deleted entries included/ })).toBeVisible();
  await expectNoViolations(page, "the events page, deleted entries shown");
  await page.goto("/dashboard/calibrations");
  await expect(page.getByRole("table", { name: /calibrations, newest first/ })).toBeVisible();
  await expectNoViolations(page, "the calibrations page");
  await page.goto("/dashboard/devices");
  await expect(page.getByRole("table").first()).toBeVisible();
  await expectNoViolations(page, "the devices page");
  // In v2 mode the alerts page says alerts need API v3; in v3 mode it lists them.
  await page.goto("/dashboard/alerts");
  await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
  await expectNoViolations(page, "the alerts page");
});

test("the export page: a period, and a mistake in the days", async ({ page }) => {
  await openDashboard(page, "SandboxUser3", { unit: "mmol/L" });
  await page.goto("/reports/export");
  await expect(page.getByRole("link", { name: /^Download the export/ })).toBeVisible();
  await expectNoViolations(page, "the export page");
  await page.goto("/reports/export?from=2026-10-07&to=2026-10-01");
  await expect(page.getByText("The last day must not be before the first day.")).toBeVisible();
  await expectNoViolations(page, "the export page with a mistake in the days");
});

test("the comparison of two periods, and its earlier-period-empty state", async ({ page }) => {
  await openDashboard(page, "SandboxUser2");
  await page.goto("/reports/compare");
  await expect(page.getByTestId("comparison-table")).toBeVisible();
  await expectNoViolations(page, "the comparison page");
  const start = (await serviceDataRange("SandboxUser2")).egvs!.start.systemTime;
  await page.goto(`/reports/compare?startDate=${start.slice(0, 10)}&endDate=${start.slice(0, 10)}`);
  await expect(page.getByTestId("period-empty")).toBeVisible();
  await expectNoViolations(page, "the comparison page, earlier period empty");
});

test.describe("in dark mode", () => {
  test.use({ colorScheme: "dark" });

  test("the dashboard (with a risk badge) and the record pages", async ({ page }) => {
    await openDashboard(page, "SandboxUser2");
    await expect(page.getByTestId("hypo-risk")).toBeVisible();
    await expect(page.getByTestId("goal-headline")).toBeVisible();
    await openTraceTables(page);
    await expectNoViolations(page, "the dashboard, dark");
    await page.goto("/dashboard/day");
    await expect(page.getByTestId("tir-goals")).toBeVisible();
    await expectNoViolations(page, "the daily view, dark");
    await page.goto("/dashboard/events?deleted=show");
    await expectNoViolations(page, "the events page, dark");
    await page.goto("/dashboard/devices");
    await expectNoViolations(page, "the devices page, dark");
    await page.goto("/reports/export");
    await expectNoViolations(page, "the export page, dark");
    await page.goto("/reports/statistics");
    await expect(page.getByTestId("window-result")).not.toHaveCount(0);
    await expectNoViolations(page, "the statistics page, dark");
    await page.goto("/reports/compare");
    await expect(page.getByTestId("comparison-table")).toBeVisible();
    await expect(page.getByTestId("compare-goals")).toBeVisible();
    await expectNoViolations(page, "the comparison page, dark");
  });
});

test.describe("at a phone's width (390 px)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the dashboard fits the width and passes", async ({ page }) => {
    await openDashboard(page, "SandboxUser1");
    await expect(page.getByTestId("glucose-trace").locator(".recharts-surface")).toBeVisible();
    await expectNoViolations(page, "the dashboard at 390 px");
    // WCAG 1.4.10: no scrolling sideways at 320 CSS px and up (wide tables scroll in their own box).
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });

  test("the statistics by time of day fit the width and pass (mmol/L)", async ({ page }) => {
    await openDashboard(page, "SandboxUser3", { unit: "mmol/L" });
    await page.goto("/reports/statistics");
    await expect(page.getByTestId("window-result")).not.toHaveCount(0);
    await expectNoViolations(page, "the statistics page at 390 px");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });

  test("the clinic sign-up and the clinic fit the width and pass", async ({ page }) => {
    await page.goto("/clinic/sign-up");
    await expectNoViolations(page, "the clinic sign-up page at 390 px");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole("button", { name: "Create a demo clinic" }).click();
    await expect(page.getByTestId("demo-password")).toBeVisible();
    await expectNoViolations(page, "the clinic page at 390 px");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test("the comparison page fits the width and passes", async ({ page }) => {
    await openDashboard(page, "SandboxUser3", { unit: "mmol/L" });
    await page.goto("/reports/compare");
    await expect(page.getByTestId("block-chart")).toBeVisible();
    await expectNoViolations(page, "the comparison page at 390 px");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });
});

test("statistics by time of day: the editor, its messages and the results (v2 and v1)", async ({ page }) => {
  await openDashboard(page, "SandboxUser1");
  await page.goto("/reports/statistics");
  await expect(page.getByTestId("window-result")).not.toHaveCount(0);
  await page.getByText("How these numbers are made").click();
  await expectNoViolations(page, "the statistics page");
  // The messages, with the inputs they concern marked.
  await page.getByRole("group", { name: "Window 1" }).getByLabel("End").fill("23:00");
  await page.getByRole("group", { name: "Window 2" }).getByLabel("Urgent low (mg/dL)").fill("90");
  await page.getByRole("button", { name: "Save windows" }).click();
  await expect(page.getByTestId("windows-errors")).toBeVisible();
  await expectNoViolations(page, "the statistics page with its messages");
  await page.goto("/reports/statistics?version=v1&days=7");
  await expect(page.getByRole("region", { name: /Statistics by window \(v1\)/ })).toBeVisible();
  await expectNoViolations(page, "the statistics page, v1");
});

test("the empty state (SandboxUser6)", async ({ page }) => {
  await openDashboard(page, "SandboxUser6");
  await expect(page.getByTestId("empty-state")).toBeVisible();
  await expectNoViolations(page, "the empty state");
  await page.goto("/reports/export");
  await expect(page.getByRole("heading", { name: "Nothing to export yet" })).toBeVisible();
  await expectNoViolations(page, "the export page without data");
  await page.goto("/reports/statistics");
  await expect(page.getByTestId("statistics-empty")).toBeVisible();
  await expectNoViolations(page, "the statistics page without readings");
});

test("the keyboard: Tab from the top reaches the periods and the Unit setting, each stop visibly focused", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser1");
  await expect(page.getByTestId("glucose-trace").locator(".recharts-surface")).toBeVisible();
  // From the top of the page, as a keyboard user arrives.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });

  const stops: Array<{ name: string; outline: string; inView: boolean }> = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      const name =
        el instanceof HTMLSelectElement
          ? `select:${el.name}`
          : `${el.tagName.toLowerCase()}:${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}`;
      const outlined = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 1;
      return {
        name,
        outline: outlined ? `${style.outlineStyle} ${style.outlineWidth}` : "none",
        // WCAG 2.4.11: the focused element is not hidden (scrolled into view, inside the window).
        inView: box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < window.innerHeight,
      };
    });
    stops.push(stop);
    if (stop.name === "select:unit") break;
  }

  const names = stops.map((s) => s.name);
  for (const label of ["3 h", "6 h", "12 h", "24 h", "7 days", "14 days", "30 days", "90 days"]) {
    expect(names, `the range "${label}" is reachable`).toContain(`a:${label}`);
  }
  expect(names.at(-1), "the Unit setting is reachable").toBe("select:unit");
  for (const s of stops) {
    expect(s.outline, `${s.name} shows its focus`).not.toBe("none");
    expect(s.inView, `${s.name} is in view when focused`).toBe(true);
  }
  // The focused range link is the one Enter follows.
  await page.getByRole("link", { name: "7 days" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard\?range=7d$/);
});

test.describe("the AGP report", () => {
  test("light, with its table open, and for the pregnancy targets (mmol/L)", async ({ page }) => {
    await openDashboard(page, "SandboxUser3", { unit: "mmol/L" });
    await page.goto("/reports");
    await expect(page.getByTestId("agp-report")).toBeVisible();
    await page.getByText("The profile as a table (every hour)").click();
    await expectNoViolations(page, "the AGP report");
    await page.goto("/reports?targets=pregnancy");
    await expectNoViolations(page, "the AGP report, pregnancy targets");
  });

  test.describe("dark, at a phone's width", () => {
    test.use({ colorScheme: "dark", viewport: { width: 390, height: 844 } });
    test("passes, and nothing scrolls sideways", async ({ page }) => {
      await openDashboard(page, "SandboxUser2");
      await page.goto("/reports");
      await expect(page.getByTestId("agp-report")).toBeVisible();
      await expectNoViolations(page, "the AGP report, dark, 390 px");
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
    });
  });
});
