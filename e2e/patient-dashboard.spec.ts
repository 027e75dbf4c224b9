import { expect, type Page, test } from "@playwright/test";
import { convertGlucose, roundForUnit } from "../lib/cgm/units";
import { scheduleName } from "../lib/records/devices";
import { dashboardApp, developer } from "../test/support/dashboard-client";
import { expectNoViolations } from "./axe";
import {
  apiVersion,
  chooseUnit,
  openDashboard,
  type RawCalibration,
  type RawEvent,
  rawRecords,
  type SandboxUsername,
  type StatisticsV2,
  serviceCell,
  serviceDataRange,
  serviceJson,
  serviceStatistics,
  statisticsCell,
  type Unit,
  xTicks,
  yTicks,
} from "./patient";

/**
 * The patient dashboard in a real browser, one sandbox user per test (each test has its own
 * browser context, so its own sign-in and its own patient account): what is distinctive about each
 * user's screen, the unit switch, the stale-data warning, the trace's period and markers, and the
 * events page. Wherever the sandbox's live data decides what the screen must say, the test asks
 * the service and compares. The suite runs with the dashboard reading API v3 (the default) or v2
 * (CGM_API_VERSION=v2); v3 has no statistics, so there the dashboard's own risk and statistics are
 * held to what the service's v2 statistics answer for the same readings.
 */

const MGDL_TICKS = ["40", "54", "70", "180", "250", "400"];
const MMOLL_TICKS = ["2.2", "3.0", "3.9", "10.0", "13.9", "22.2"];
const RISK_LABELS = { minimal: "Minimal", low: "Low", moderate: "Moderate", high: "High" } as const;
const grams = (e: RawEvent) => `${e.value} ${e.value === 1 ? "gram" : "grams"}`;
/** A calibration as the page shows it in mmol/L: v2 sends this account's in mmol/L, v3 in mg/dL. */
const inMmoll = (c: RawCalibration) =>
  `${roundForUnit(convertGlucose(c.value, c.unit, "mmol/L"), "mmol/L").toFixed(1)} mmol/L`;

/**
 * The risk badge says what the service's own v2 statistics say for the window the page
 * summarizes (with API v3 the dashboard computes it by the same method: the same category). The
 * window ends at the newest reading; should one arrive between the page's render and the test's
 * request, the "Readings" cell (the service's nValues, or with v3 the dashboard's count) tells,
 * and the page reloads.
 */
async function expectRiskOfService(page: Page, username: SandboxUsername, unit: Unit): Promise<StatisticsV2> {
  let stats: StatisticsV2 | undefined;
  await expect(async () => {
    stats = await serviceStatistics(username, unit);
    const shown = (await statisticsCell(page, /^Readings/).textContent())?.trim();
    if (shown !== String(stats.nValues)) await page.reload();
    expect(shown, "the page and the test asked the service for the same window").toBe(String(stats.nValues));
  }).toPass({ timeout: 30_000 });
  const risk = stats!.hypoglycemiaRisk;
  const badge = page.getByTestId("hypo-risk");
  if (risk === null) {
    await expect(badge).toHaveAttribute("data-risk", "none");
  } else {
    await expect(badge).toHaveAttribute("data-risk", risk);
    await expect(badge).toHaveText(`${RISK_LABELS[risk]} risk of hypoglycemia`);
  }
  return stats!;
}

test.describe("each sandbox user's distinctive screen", () => {
  test("SandboxUser1, the baseline: whole mg/dL, a fresh reading without warning, the trace and the service's risk", async ({
    page,
  }) => {
    await openDashboard(page, "SandboxUser1");
    await expect(page.getByTestId("latest-value")).toHaveText(/^\d{2,3}$/);
    await expect(page.getByTestId("latest-glucose")).toContainText("mg/dL");
    // The embedded sandbox releases readings at once (delay 0): a reading every 5 minutes.
    await expect(page.getByTestId("latest-age")).toHaveText(/^Read (just now|\d min ago) ·/);
    await expect(page.getByTestId("stale-warning")).toHaveCount(0);
    const ticks = await yTicks(page);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    for (const t of ticks) expect(MGDL_TICKS).toContain(t);
    await expect(page.getByTestId("trace-caption")).toContainText("Target range 70–180 mg/dL");
    await expect(page.getByTestId("time-in-range").locator('[data-range="inRange"]')).toContainText(
      "70–180 mg/dL",
    );
    await expect(page.getByTestId("empty-state")).toHaveCount(0);
    const stats = await expectRiskOfService(page, "SandboxUser1", "mg/dL");
    // A sensor worn all the time: the service has enough data for a category.
    expect(stats.hypoglycemiaRisk).not.toBeNull();
  });

  test("SandboxUser2: the hypoglycemia risk badge carries the service's category, moderate or high", async ({
    page,
  }) => {
    await openDashboard(page, "SandboxUser2");
    const stats = await expectRiskOfService(page, "SandboxUser2", "mg/dL");
    // The user exists to show frequent overnight lows (README): the service must see them.
    expect(["moderate", "high"]).toContain(stats.hypoglycemiaRisk);
    const day = await newestReadingDay("SandboxUser2");
    await expect(page.getByRole("region", { name: "Hypoglycemia risk" })).toContainText(
      apiVersion() === "v2"
        ? `From the glucose service's statistics over the 14 days to ${day}.`
        : `Computed by this dashboard over the 14 days to ${day}, with the glucose service's own method (its API v3 gives no statistics`,
    );
    // The lows show in the time in range, and in the service's own count of them (v3: ours alone).
    await expect(statisticsCell(page, /^Below 54 mg\/dL/)).not.toHaveText("0.0%");
    // The dashboard's own shares are rounded together, as in the time in range panel: the four
    // bands sum to 100% with one number of decimals.
    const ours = async (measure: RegExp) =>
      (
        await page
          .getByTestId("statistics-comparison")
          .getByRole("row", { name: measure })
          .getByRole("cell")
          .first()
          .textContent()
      )?.trim() ?? "";
    const shown = [
      await ours(/^Below 54 mg\/dL/),
      await ours(/^54–69 mg\/dL/),
      await ours(/^In range 70–180/),
      await ours(/^Above 180/),
    ];
    const decimals = new Set(shown.map((t) => t.match(/\.(\d+)%$/)?.[1]?.length ?? 0));
    expect(decimals.size, `${shown.join(", ")}: one number of decimals`).toBe(1);
    const sum = shown.reduce((s, t) => s + Number(t.replace("%", "")), 0);
    expect(Math.round(sum * 100) / 100, `${shown.join(" + ")}`).toBe(100);
    // A table comparing two sources shows a decimal in both columns, so rounding never sets our
    // share a whole point apart from the service's same number.
    expect(decimals.has(0), shown.join(", ")).toBe(false);
    if (apiVersion() === "v2") {
      await expect(serviceCell(page, /^Below 54 mg\/dL/)).toHaveText(/^\d+\.\d+%$/);
    } else {
      // No column of the service's: the table says why.
      await expect(page.getByRole("columnheader", { name: "Glucose service" })).toHaveCount(0);
      await expect(page.getByTestId("statistics-by-dashboard")).toContainText("(API v3) gives no statistics");
    }
  });

  test("SandboxUser3: every value in mmol/L with a decimal, and the fingerstick calibrations listed", async ({
    page,
  }) => {
    await openDashboard(page, "SandboxUser3", { unit: "mmol/L" });
    await expect(page.getByTestId("latest-value")).toHaveText(/^\d{1,2}\.\d$/);
    await expect(page.getByTestId("latest-glucose")).toContainText("mmol/L");
    await expect(page.getByTestId("latest-trend")).not.toContainText("mg/dL");
    const ticks = await yTicks(page);
    expect(ticks).toContain("10.0");
    for (const t of ticks) expect(MMOLL_TICKS).toContain(t);
    await expect(page.getByTestId("trace-caption")).toContainText("Target range 3.9–10.0 mmol/L");
    const tir = page.getByTestId("time-in-range");
    await expect(tir.locator('[data-range="inRange"]')).toContainText("3.9–10.0 mmol/L");
    await expect(tir).not.toContainText("mg/dL");
    const stats = page.getByTestId("statistics-comparison");
    await expect(stats).toContainText("In range 3.9–10.0 mmol/L");
    await expect(stats).not.toContainText("mg/dL");
    await expect(statisticsCell(page, "Mean glucose (mmol/L)")).toHaveText(/^\d{1,2}\.\d$/);
    await expect(page.getByLabel("Target low (mmol/L)")).toHaveValue("3.9");
    await expectRiskOfService(page, "SandboxUser3", "mmol/L");

    // The calibrations page: what the service holds for the 14 receiver days up to the latest calibration.
    await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Calibrations" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Calibrations" })).toBeVisible();
    await expect(page.getByText(/^Devices? in this period: .*G5/)).toBeVisible();
    const raw = await rawRecords<RawCalibration>("SandboxUser3", "calibrations", 14, "own");
    // About two a day, plus two at each sensor start.
    expect(raw.length).toBeGreaterThanOrEqual(20);
    const table = page.getByRole("table", { name: /calibrations, newest first/ });
    await expect(table).toHaveAccessibleName(`${raw.length} calibrations, newest first`);
    const values = await table.locator("tbody tr td:nth-child(2)").allTextContents();
    expect(values).toHaveLength(raw.length);
    for (const v of values) expect(v).toMatch(/^\d{1,2}\.\d mmol\/L$/);
    const newest = raw.reduce((a, b) => (a.systemTime > b.systemTime ? a : b));
    expect(newest.unit).toBe(apiVersion() === "v2" ? "mmol/L" : "mg/dL");
    expect(values[0]).toBe(inMmoll(newest));
  });

  test("SandboxUser5: no risk category, and the text says why, with the minimum-data rule of spec 2.6", async ({
    page,
  }) => {
    await openDashboard(page, "SandboxUser5");
    const stats = await expectRiskOfService(page, "SandboxUser5", "mg/dL");
    expect(stats.hypoglycemiaRisk).toBeNull();
    const risk = page.getByTestId("hypo-risk");
    await expect(risk).toContainText("Not enough sensor data to estimate the risk.");
    await expect(risk).toContainText(
      "over a period shorter than 20 days, on at least 12 days with the sensor in use at least 66% of the day",
    );
    await expect(risk).toContainText("over 20 days or more, on at least 60% of the days");
    // Readings exist (a sensor worn now and then), so the rest of the dashboard is there.
    await expect(page.getByTestId("glucose-trace")).toBeVisible();
  });

  test("SandboxUser6: the empty state, and no chart, value or risk", async ({ page }) => {
    await openDashboard(page, "SandboxUser6");
    const empty = page.getByTestId("empty-state");
    await expect(empty).toBeVisible();
    await expect(empty).toContainText("the glucose service holds no readings for it yet");
    await expect(page.getByRole("heading", { name: "No readings yet" })).toBeVisible();
    for (const id of ["glucose-trace", "latest-glucose", "hypo-risk", "trace-caption", "time-in-range"]) {
      await expect(page.getByTestId(id)).toHaveCount(0);
    }
    await expect(page.locator(".recharts-wrapper, svg.recharts-surface")).toHaveCount(0);
    // The service indeed holds nothing for this user.
    expect(await serviceDataRange("SandboxUser6")).toEqual({ calibrations: null, egvs: null, events: null });
  });
});

test("the unit switch: mg/dL to mmol/L for every number on the page, remembered after a reload, and back", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser1");
  // With API v3 the account is the same at every sign-in: a unit left over by a failure here would
  // fail the later tests of SandboxUser1 too.
  try {
    await switchUnits(page);
  } finally {
    await chooseUnit(page, "auto");
  }
});

async function switchUnits(page: Page) {
  const value = page.getByTestId("latest-value");
  const at = page.getByTestId("latest-age");
  await expect(value).toHaveText(/^\d{2,3}$/);
  const before = { mgdl: Number(await value.textContent()), at: (await at.textContent())?.split("·")[1] };

  const unit = page.getByLabel("Unit");
  await expect(unit).toHaveValue("auto");
  await unit.selectOption("mmol/L");
  await page.getByRole("button", { name: "Save" }).click();

  const expectMmol = async () => {
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(value).toHaveText(/^\d{1,2}\.\d$/);
    await expect(page.getByTestId("latest-glucose")).toContainText("mmol/L");
    const ticks = await yTicks(page);
    expect(ticks).toContain("10.0");
    for (const t of ticks) expect(MMOLL_TICKS).toContain(t);
    await expect(page.getByTestId("trace-caption")).toContainText("Target range 3.9–10.0 mmol/L");
    const tir = page.getByTestId("time-in-range");
    for (const [range, text] of [
      ["veryHigh", "above 13.9 mmol/L"],
      ["high", "10.1–13.9 mmol/L"],
      ["inRange", "3.9–10.0 mmol/L"],
      ["low", "3.0–3.8 mmol/L"],
      ["veryLow", "below 3.0 mmol/L"],
    ] as const) {
      await expect(tir.locator(`[data-range="${range}"]`)).toContainText(text);
    }
    await expect(tir).not.toContainText("mg/dL");
    await expect(page.getByTestId("statistics-comparison")).not.toContainText("mg/dL");
    await expect(statisticsCell(page, "Mean glucose (mmol/L)")).toHaveText(/^\d{1,2}\.\d$/);
    await expect(page.getByLabel("Target low (mmol/L)")).toHaveValue("3.9");
    await expect(page.getByLabel("Target high (mmol/L)")).toHaveValue("10");
    await expect(unit).toHaveValue("mmol/L");
  };
  await expectMmol();
  // The same reading, converted (unless a newer one arrived meanwhile).
  if ((await at.textContent())?.split("·")[1] === before.at) {
    // Both are rounded from the service's value: half a mg/dL and half a tenth apart at most.
    const mmol = Number(await value.textContent());
    expect(Math.abs(mmol - before.mgdl / 18.0182)).toBeLessThanOrEqual(0.05 + 0.5 / 18.0182);
  }

  await page.reload();
  await expectMmol();

  await unit.selectOption("auto");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(value).toHaveText(/^\d{2,3}$/);
  await expect(page.getByTestId("time-in-range").locator('[data-range="inRange"]')).toContainText(
    "70–180 mg/dL",
  );
  for (const t of await yTicks(page)) expect(MGDL_TICKS).toContain(t);
  await expect(page.getByLabel("Target low (mg/dL)")).toHaveValue("70");
  await expect(unit).toHaveValue("auto");
}

test.describe("the stale-data warning", () => {
  const dataDir = () => process.env.E2E_DATA_DIR ?? "";

  test("appears when the service's newest reading is older than the delay plus 15 minutes (the sandbox releases an hour late)", async ({
    page,
    baseURL,
  }) => {
    // The age is computed on the server (lib/dashboard/overview.ts): the service's newest reading
    // against the server's clock. The sandbox's releaseDelayMinutes fault makes the service hold
    // back the last hour of readings, as a phone that stopped uploading would.
    await openDashboard(page, "SandboxUser1");
    await expect(page.getByTestId("stale-warning")).toHaveCount(0);
    const app = developer(baseURL!, dashboardApp(dataDir()));
    try {
      await app.faults({ releaseDelayMinutes: 60 });
      await page.reload();
      const warning = page.getByTestId("stale-warning");
      await expect(warning).toBeVisible();
      await expect(warning).toHaveText(
        /^No newer reading has arrived for 1 h( \d+ min)?, longer than the service's usual delay\./,
      );
      await expect(warning).toHaveRole("status");
      await expect(page.getByTestId("latest-glucose")).toHaveText(/^Last reading 1 h( \d+ min)? ago:/);
      await expect(page.getByTestId("latest-age")).toHaveText(/^Taken \w{3} \d{1,2} \w{3}, \d\d:\d\d on/);
    } finally {
      await app.faults({});
    }
    await page.reload();
    await expect(page.getByTestId("latest-age")).toHaveText(/^Read (just now|\d min ago) ·/);
    await expect(page.getByTestId("stale-warning")).toHaveCount(0);
  });

  test("appears after switching periods and back: the earlier visit's overview is not shown again", async ({
    page,
    baseURL,
  }) => {
    // The age comes from the server's render; a period seen before must not come back from the
    // browser's cache with the age it had then while the service stopped releasing readings.
    await openDashboard(page, "SandboxUser1");
    const periods = page.getByRole("navigation", { name: "Period of the trace" });
    await expect(page.getByTestId("stale-warning")).toHaveCount(0);
    await periods.getByRole("link", { name: "7 days" }).click();
    await expect(page).toHaveURL(/range=7d/);
    await expect(page.getByTestId("trace-caption")).toContainText("7 days");
    const app = developer(baseURL!, dashboardApp(dataDir()));
    try {
      await app.faults({ releaseDelayMinutes: 60 });
      await periods.getByRole("link", { name: "24 h" }).click();
      await expect(page).toHaveURL(/range=24h|\/dashboard$/);
      await expect(page.getByTestId("trace-caption")).toContainText("24 h");
      await expect(page.getByTestId("stale-warning")).toBeVisible();
      await expect(page.getByTestId("latest-glucose")).toHaveText(/^Last reading 1 h( \d+ min)? ago:/);
    } finally {
      await app.faults({});
    }
  });

  test("appears on a page left open while no newer reading arrives (the browser's clock moved on)", async ({
    page,
  }) => {
    // The page ages the server's figure by the time it has been open (performance.now, which the
    // clock API drives), so the warning needs no reload.
    await page.clock.install();
    // The sandbox is live: a reading may arrive in real time (even between the server's render and
    // the page's first poll), and the page would rightly fetch and show it. This test is about none
    // arriving, so every dataRange poll is told that the newest EGV is the oldest one, which is
    // never newer than the reading the page shows.
    await page.route(`**/api/cgm/${apiVersion()}/users/self/dataRange`, async (route) => {
      const range = await (await route.fetch()).json();
      if (range.egvs) range.egvs.end = range.egvs.start;
      await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(range) });
    });
    await openDashboard(page, "SandboxUser1");
    const warning = page.getByTestId("stale-warning");
    const age = page.getByTestId("latest-age");
    await expect(age).toHaveText(/^Read (just now|\d min ago) ·/);
    await expect(warning).toHaveCount(0);
    // The server's HTML shows the same text before React hydrates; a clock moved before the page
    // starts counting would be missed (the count starts from the clock at hydration).
    await expect(age).toHaveAttribute("data-ageing", "true");

    // Ten minutes on, the reading is at most 15 minutes old: within the margin, still current.
    await page.clock.fastForward("10:00");
    await expect(age).toHaveText(/^Read 1[0-5] min ago ·/);
    await expect(warning).toHaveCount(0);
    await expectCurrentLook(page);

    // An hour on: older than the delay (0) plus 15 minutes. The open page turns it stale too.
    await page.clock.fastForward("50:00");
    await expect(warning).toBeVisible();
    await expect(warning).toContainText(/No newer reading has arrived for 1 h( \d+ min)?, longer/);
    await expectStaleLook(page, /1 h( \d+ min)?/);
    await expect(age).toHaveText(/^Taken \w{3} \d{1,2} \w{3}, \d\d:\d\d on your receiver's clock$/);
    // A poll may still be in flight: it must not outlive this test and fail the next one.
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });
});

/**
 * The day of the service's newest reading on the receiver's clock ("Wed 25 Nov"), as the cards
 * name the end of their period, computed here independently of the page's code.
 */
async function newestReadingDay(username: SandboxUsername, minutesBefore = 0): Promise<string> {
  const range = await serviceDataRange(username);
  const wall = new Date(Date.parse(`${range.egvs!.end.displayTime.slice(0, 19)}Z`) - minutesBefore * 60_000);
  const part = (o: Intl.DateTimeFormatOptions) => wall.toLocaleDateString("en-GB", { ...o, timeZone: "UTC" });
  return `${part({ weekday: "short" })} ${part({ day: "numeric" })} ${part({ month: "short" })}`;
}

/** Minutes since the service's newest reading, by the test's clock. */
async function newestAgeMinutes(username: SandboxUsername): Promise<number> {
  const range = await serviceDataRange(username);
  return (Date.now() - Date.parse(`${range.egvs!.end.systemTime}Z`)) / 60_000;
}

/** A current reading: the value large, in the page's normal text colour, with its trend arrow. */
async function expectCurrentLook(page: Page) {
  const latest = page.getByTestId("latest-glucose");
  await expect(latest.getByRole("img")).toHaveCount(1);
  await expect(page.getByTestId("latest-value")).toHaveCSS("font-size", "60px");
}

/**
 * An old reading that cannot pass for a current one: its age first ("Last reading 10 days ago:
 * 77 mg/dL"), the value smaller and greyed (another colour than the panel's text), no trend arrow
 * and no trend in words.
 */
async function expectStaleLook(page: Page, age: RegExp) {
  const latest = page.getByTestId("latest-glucose");
  await expect(latest).toHaveText(
    new RegExp(`^Last reading ${age.source} ago:\\s*(\\d+|LOW|HIGH)\\s*(mg/dL)?$`),
  );
  await expect(latest.getByRole("img")).toHaveCount(0);
  await expect(page.getByTestId("latest-trend")).toContainText("No trend: the reading is too old");
  await expect(page.getByTestId("latest-trend")).not.toContainText(/steady|rising|falling/);
  const value = page.getByTestId("latest-value");
  await expect(value).toHaveCSS("font-size", "36px");
  const colour = (testId: string) => page.getByTestId(testId).evaluate((el) => getComputedStyle(el).color);
  expect(await colour("latest-value")).not.toBe(await colour("latest-trend"));
  await expect(latest).toHaveAttribute("data-stale", "true");
}

test("SandboxUser5, who wears a sensor about 3 days in 10: an old reading cannot be mistaken for a current one", async ({
  page,
  baseURL,
}) => {
  await openDashboard(page, "SandboxUser5");
  const app = developer(baseURL!, dashboardApp(process.env.E2E_DATA_DIR ?? ""));
  try {
    // Most days the newest reading is days old. On a day the sensor is on, the service is made to
    // release nothing of the last hour, as if it had come off then.
    const withheldMinutes = (await newestAgeMinutes("SandboxUser5")) <= 16 ? 60 : 0;
    if (withheldMinutes > 0) {
      await app.faults({ releaseDelayMinutes: withheldMinutes });
      await page.reload();
    }
    const minutes = await newestAgeMinutes("SandboxUser5");
    const days = Math.floor(minutes / 1440);
    const age = days >= 1 ? new RegExp(`(${days}|${days + 1}) days?`) : /\d+ h( \d+ min)?/;
    await expectStaleLook(page, age);
    await expect(page.getByTestId("stale-warning")).toBeVisible();
    // The cards name the period they summarize: the 14 days to the newest reading, not "the last 14".
    // With the last hour withheld, the dashboard's newest reading is up to that hour (and the
    // reading's 5 minutes) older than this test's: past the receiver's midnight, the day before.
    const day = await newestReadingDay("SandboxUser5");
    const earliest = await newestReadingDay("SandboxUser5", withheldMinutes > 0 ? withheldMinutes + 5 : 0);
    const to = `14 days to (${[...new Set([day, earliest])].join("|")})`;
    await expect(page.getByRole("heading", { name: new RegExp(`^Time in ranges, ${to}$`) })).toBeVisible();
    await expect(page.getByRole("heading", { name: new RegExp(`^Statistics, ${to}$`) })).toBeVisible();
    await expect(page.getByRole("region", { name: "Hypoglycemia risk" })).toContainText(
      new RegExp(`over the ${to}`),
    );
    await expect(page.locator("body")).not.toContainText(/last 14 days/i);
    // Greyed, still readable: the contrast rules hold.
    await expectNoViolations(page, "the dashboard with an old reading");
  } finally {
    await app.faults({});
  }
});

test("the range picker: 14 days draws the 14-day trace, with its events and calibrations as tooltips and as a table", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser3", { unit: "mmol/L" });
  const caption = page.getByTestId("trace-caption");
  await expect(caption).toHaveText(/^Last 24 h: \d+ readings up to/);
  const readings24h = Number((await caption.textContent())?.match(/: (\d+) readings/)?.[1]);
  for (const t of await xTicks(page)) expect(t).toMatch(/^\d\d:\d\d$/);

  const picker = page.getByRole("navigation", { name: "Period of the trace" });
  await picker.getByRole("link", { name: "14 days" }).click();
  await expect(page).toHaveURL(/\/dashboard\?range=14d$/);
  await expect(picker.getByRole("link", { name: "14 days" })).toHaveAttribute("aria-current", "page");
  await expect(caption).toHaveText(/^Last 14 days: \d+ readings up to/);
  const readings14d = Number((await caption.textContent())?.match(/: (\d+) readings/)?.[1]);
  expect(readings14d).toBeGreaterThan(readings24h * 5);
  for (const t of await xTicks(page))
    expect(t).toMatch(/^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) \d{1,2} [A-Z][a-z]{2}$/);

  // The markers are the service's events (deleted ones left out) and calibrations in the window.
  const markers = page.getByTestId("markers-table");
  const diamonds = page.getByTestId("glucose-trace").locator(".trace-calibrations .recharts-scatter-symbol");
  // With API v3 the strip has a row of alerts too, which are not events.
  const eventMarks = page
    .getByTestId("event-strip")
    .locator(".recharts-scatter:not(.trace-alerts) .recharts-scatter-symbol");
  let raw: { events: RawEvent[]; calibrations: RawCalibration[] } = { events: [], calibrations: [] };
  await expect(async () => {
    raw = {
      events: (await rawRecords<RawEvent>("SandboxUser3", "events", 14, "egvs")).filter(
        (e) => e.eventStatus !== "deleted",
      ),
      calibrations: await rawRecords<RawCalibration>("SandboxUser3", "calibrations", 14, "egvs"),
    };
    const drawn = [await diamonds.count(), await eventMarks.count()];
    if (drawn[0] !== raw.calibrations.length || drawn[1] !== raw.events.length) await page.reload();
    expect(drawn).toEqual([raw.calibrations.length, raw.events.length]);
  }).toPass({ timeout: 30_000 });
  expect(raw.calibrations.length).toBeGreaterThanOrEqual(20);
  expect(raw.events.length).toBeGreaterThan(0);

  // With API v3 the alerts that sounded are in the table too.
  const andAlerts = apiVersion() === "v3" ? ", calibrations and alerts" : " and calibrations";
  // The page sends the newest 50 rows while the list is closed; opened, it lists every marker.
  expect(raw.events.length + raw.calibrations.length).toBeGreaterThan(50);
  await expect(markers.locator("tbody tr")).toHaveCount(50);
  await expect(markers.getByTestId("markers-table-partial")).toBeAttached();
  await markers.getByText(`The trace's events${andAlerts} as a table`).click();
  await expect(markers.getByTestId("markers-table-partial")).toHaveCount(0);
  const table = markers.getByRole("table", {
    name: `Events${andAlerts} on the trace, newest first`,
  });
  await expect(table).toBeVisible();
  const rows = table.locator("tbody tr");
  const entries = await rows.locator("td:nth-child(2)").allTextContents();
  expect(entries.filter((e) => !/ alert\b/.test(e))).toHaveLength(
    raw.events.length + raw.calibrations.length,
  );
  const calibrationValues = await rows
    .filter({ has: page.getByRole("cell", { name: "Calibration", exact: true }) })
    .locator("td:nth-child(3)")
    .allTextContents();
  expect(calibrationValues.sort()).toEqual(raw.calibrations.map(inMmoll).sort());
  const carbs = raw.events.filter((e) => e.eventType === "carbs");
  expect(carbs.length).toBeGreaterThan(0);
  const carbValues = await rows
    .filter({ has: page.getByRole("cell", { name: "Carbs", exact: true }) })
    .locator("td:nth-child(3)")
    .allTextContents();
  expect(carbValues.sort()).toEqual(carbs.map(grams).sort());

  // Tooltips: an event marker names the event with its amount; a diamond names the calibration.
  const carbMarks = page.getByTestId("event-strip").locator(".recharts-scatter").first();
  await carbMarks.locator(".recharts-scatter-symbol").last().hover();
  await expect(page.getByTestId("event-strip").locator(".recharts-tooltip-wrapper")).toHaveText(
    /^Carbs: \d+ grams(Sun|Mon|Tue|Wed|Thu|Fri|Sat) \d{1,2} [A-Z][a-z]{2}, \d\d:\d\d$/,
  );
  // A diamond at a sensor's start may sit in the warm-up gap, where the line has no reading to
  // anchor the tooltip: the newest diamonds are tried until one sits beside the line.
  const traceTooltip = page.getByTestId("glucose-trace").locator(".recharts-tooltip-wrapper");
  let named = "";
  // Two calibrations a few minutes apart draw one diamond over the other: one that is covered
  // cannot be hovered, and the next is tried.
  for (let i = raw.calibrations.length - 1; i >= raw.calibrations.length - 6 && !named; i--) {
    const hovered = await diamonds
      .nth(i)
      .hover({ timeout: 2_000 })
      .then(() => true)
      .catch(() => false);
    if (!hovered) continue;
    await page.waitForTimeout(100);
    named = ((await traceTooltip.textContent()) ?? "").match(/Calibration: [^ ]+ mmol\/L/)?.[0] ?? "";
  }
  expect(named).toMatch(/^Calibration: \d{1,2}\.\d mmol\/L$/);
  expect(raw.calibrations.map((c) => `Calibration: ${inMmoll(c)}`)).toContain(named);
});

test("the events page: the type filter lists only carbs, and deleted v2 events stay hidden until asked for", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser2");
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Events" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
  // 90 days, so that the sandbox's occasional deleted entries (about 3 in 100) are surely there.
  await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "90 days" }).click();
  await expect(page).toHaveURL(/\/dashboard\/events\?days=90$/);

  const raw = await rawRecords<RawEvent>("SandboxUser2", "events", 90, "own");
  const created = raw.filter((e) => e.eventStatus !== "deleted");
  const deleted = raw.filter((e) => e.eventStatus === "deleted");
  expect(deleted.length).toBeGreaterThan(0);
  const table = page.getByRole("table", { name: /newest first/ });
  const rows = table.locator("tbody tr");
  await expect(table).toHaveAccessibleName(`${created.length} events, newest first`);
  await expect(rows).toHaveCount(created.length);
  await expect(rows.and(page.locator('[data-status="deleted"]'))).toHaveCount(0);
  await expect(table).not.toContainText("Deleted");
  await expect(
    page.getByText(
      deleted.length === 1 ? "1 deleted entry is hidden." : `${deleted.length} deleted entries are hidden.`,
    ),
  ).toBeVisible();

  const type = page.getByRole("navigation", { name: "Type" });
  const carbs = created.filter((e) => e.eventType === "carbs");
  await type.getByRole("link", { name: new RegExp(`^Carbs\\s*\\(${carbs.length}\\)$`) }).click();
  await expect(page).toHaveURL(/type=carbs/);
  await expect(type.getByRole("link", { name: /^Carbs/ })).toHaveAttribute("aria-current", "true");
  await expect(rows).toHaveCount(carbs.length);
  expect(new Set(await rows.locator("td:nth-child(2)").allTextContents())).toEqual(new Set(["Carbs"]));
  expect((await rows.locator("td:nth-child(4)").allTextContents()).sort()).toEqual(carbs.map(grams).sort());

  // On request, the deleted carbs entries are listed and marked.
  const deletedCarbs = deleted.filter((e) => e.eventType === "carbs");
  if (deletedCarbs.length > 0) {
    await page.getByRole("link", { name: "Show deleted entries" }).click();
    await expect(rows).toHaveCount(carbs.length + deletedCarbs.length);
    await expect(rows.and(page.locator('[data-status="deleted"]'))).toHaveCount(deletedCarbs.length);
    await expect(rows.and(page.locator('[data-status="deleted"]')).first()).toContainText("Deleted");
  }
});

test("SandboxUser4's devices page lists each device's alert settings as the service reports them", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser4");
  // The page's window: the 30 receiver days up to the newest reading, as the comparison API
  // resolves "the last 30 days" (and answers its exact bounds).
  const { recent } = await page.evaluate(
    async () => (await (await fetch("/api/reports/compare?days=30")).json()).comparison,
  );
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Devices" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Devices" })).toBeVisible();
  if (apiVersion() === "v2") {
    // With API v2 the older interface's (v1) devices are listed too, each alert with its delay.
    const query = new URLSearchParams({ startDate: recent.startDate, endDate: recent.endDate });
    const { devices } = await serviceJson<{
      devices: Array<{ model: string; alertSettings: Array<{ alertName: string }> | null }>;
    }>("SandboxUser4", `v1/users/self/devices?${query}`);
    expect(devices.length).toBeGreaterThan(0);
    const v1Tables = page.getByRole("table", { name: /\(v1\)$/ });
    const withSettings = devices.filter((d) => (d.alertSettings?.length ?? 0) > 0);
    await expect(v1Tables).toHaveCount(withSettings.length);
    for (const [i, device] of withSettings.entries()) {
      const table = v1Tables.nth(i);
      await expect(table.locator("tbody tr")).toHaveCount(device.alertSettings!.length);
      // v1 alerts carry a delay, which the table shows in its own column.
      await expect(table.getByRole("columnheader", { name: "Delay" })).toBeVisible();
    }
    return;
  }
  // API v3: the devices that uploaded in the window (v3 devices take no window: the page keeps
  // those uploaded since its start), each schedule with its alert settings, and no v1 devices.
  const { records } = await serviceJson<{
    records: Array<{
      lastUploadDate: string;
      alertSchedules: Array<{
        alertScheduleSettings: { alertScheduleName: string; isDefaultSchedule: boolean };
        alertSettings: unknown[];
      }>;
    }>;
  }>("SandboxUser4", "v3/users/self/devices");
  const shown = records.filter(
    (d) => Date.parse(`${d.lastUploadDate.slice(0, 19)}Z`) >= Date.parse(`${recent.startDate}Z`),
  );
  const schedules = shown.flatMap((d) => d.alertSchedules).filter((s) => s.alertSettings.length > 0);
  expect(schedules.length).toBeGreaterThan(0);
  const tables = page.getByRole("table", { name: /^Alert settings of the / });
  await expect(tables).toHaveCount(schedules.length);
  for (const [i, schedule] of schedules.entries()) {
    // The default schedule has no name in v3 (""): the page calls it the default schedule.
    await expect(tables.nth(i)).toHaveAccessibleName(
      scheduleName(schedule.alertScheduleSettings).settingsCaption,
    );
    await expect(tables.nth(i).locator("tbody tr")).toHaveCount(schedule.alertSettings.length);
  }
  await expect(page.getByRole("table", { name: /\(v1\)$/ })).toHaveCount(0);
});
