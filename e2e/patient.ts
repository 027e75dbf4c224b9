import { expect, type Locator, type Page } from "@playwright/test";
import { serviceReader } from "../test/support/sandbox-client";
import { signInThroughSandbox } from "./sign-in";

/**
 * What the patient-dashboard tests share: signing in to a user's dashboard, and asking the service
 * (the sandbox itself, as another app of the same user) what the page should show, so the tests
 * compare the screen with the service's answer instead of with numbers written down today (the
 * sandbox's data is live: a new reading every five minutes). The service is asked with v2, which
 * the sandbox serves whatever API version the dashboard reads it with.
 */

export type SandboxUsername = `SandboxUser${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8}`;
export type Unit = "mg/dL" | "mmol/L";

/** The API version the suite's server reads the service with (e2e/global-setup.ts): v3 unless told v2. */
export const apiVersion = (): "v2" | "v3" => (process.env.E2E_API_VERSION === "v2" ? "v2" : "v3");

/**
 * Signs in as `username` and waits for the dashboard to have drawn. `unit`: the unit the test needs
 * on screen. With API v2 the service says the account's own unit (SandboxUser3's is mmol/L) and the
 * dashboard's "auto" shows it; v3 sends mg/dL only, so there the patient chooses mmol/L in the
 * settings, as a person would. With v3 a sign-in reaches the same account each time (one per
 * service account), so the choice stays for later tests of the same user.
 */
export async function openDashboard(page: Page, username: SandboxUsername, o: { unit?: Unit } = {}) {
  await signInThroughSandbox(page, username);
  await expect(page).toHaveURL(/\/dashboard$/);
  if (o.unit && apiVersion() === "v3") {
    await chooseUnit(page, o.unit);
    await page.reload();
  }
  await expect(page.getByRole("heading", { level: 1, name: "Your glucose" })).toBeVisible();
}

/**
 * Saves the display unit with the page's session: a unit as the unit form saves it, or "auto"
 * (the service's own) through the dashboard's settings form, as the patient does.
 */
export async function chooseUnit(page: Page, unit: Unit | "auto") {
  if (unit === "auto") {
    await page.goto("/dashboard");
    await page.getByLabel("Unit").selectOption("auto");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByLabel("Unit")).toHaveValue("auto");
    return;
  }
  const origin = new URL(page.url()).origin;
  const res = await page.request.post("/api/preferences/unit", {
    form: { unit, returnTo: "/dashboard" },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(res.status(), `saving the unit ${unit}`).toBe(303);
}

const readers = new Map<string, ReturnType<typeof serviceReader>>();

/** The service's JSON answer for `username` to a path below /sandbox (e.g. `v2/users/self/dataRange`). */
export async function serviceJson<T = unknown>(
  username: SandboxUsername,
  pathAndQuery: string,
  init: RequestInit = {},
): Promise<T> {
  const base = process.env.E2E_BASE_URL ?? "";
  const key = `${base}|${username}`;
  let reader = readers.get(key);
  if (!reader) {
    reader = serviceReader(base, username);
    readers.set(key, reader);
  }
  const res = await (await reader)(pathAndQuery, init);
  if (!res.ok) throw new Error(`${pathAndQuery}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface DataRangeV2 {
  [group: string]: {
    start: { systemTime: string; displayTime: string };
    end: { systemTime: string; displayTime: string };
  } | null;
}

/** The service's v2 dataRange for the user: the first and last record of each group. */
export const serviceDataRange = (username: SandboxUsername) =>
  serviceJson<DataRangeV2>(username, "v2/users/self/dataRange");

/**
 * The dataRange in the suite's API version, its times as v2 writes them (v3's `…Z` and `…±hh:mm`
 * cut to the clock reading): v3 serves records v2 does not (blood glucose entries among events),
 * so a group's newest record can differ between the two, and the dashboard reads the suite's.
 */
async function suiteDataRange(username: SandboxUsername): Promise<DataRangeV2> {
  if (apiVersion() === "v2") return serviceDataRange(username);
  const range = await serviceJson<DataRangeV2>(username, "v3/users/self/dataRange");
  const cut = (t: { systemTime: string; displayTime: string }) => ({
    systemTime: t.systemTime.slice(0, 19),
    displayTime: t.displayTime.slice(0, 19),
  });
  return Object.fromEntries(
    (["egvs", "events", "calibrations"] as const).map((g) => {
      const r = range[g];
      return [g, r ? { start: cut(r.start), end: cut(r.end) } : null];
    }),
  );
}

/**
 * The y-axis tick labels of the glucose trace, bottom to top. Recharts leaves out labels that would
 * overlap (40, 54 and 70 mg/dL sit close together), so a test checks the labels that are drawn.
 */
export async function yTicks(page: Page): Promise<string[]> {
  const labels = page.getByTestId("glucose-trace").locator(".recharts-yAxis-tick-labels text");
  await expect(labels.first()).toBeVisible();
  return labels.allTextContents();
}

/**
 * Hovers the first of a chart's markers that the pointer can reach. Markers a few minutes apart draw
 * one over the other, and one that is covered cannot be hovered (Playwright waits for it until the
 * test times out), so each is tried briefly in turn, in the order given.
 */
export async function hoverFirstReachable(markers: Locator, indices: number[]): Promise<boolean> {
  for (const i of indices) {
    const hovered = await markers
      .nth(i)
      .hover({ timeout: 2_000 })
      .then(() => true)
      .catch(() => false);
    if (hovered) return true;
  }
  return false;
}

/** The x-axis tick labels of the glucose trace, left to right. */
export async function xTicks(page: Page): Promise<string[]> {
  const labels = page.getByTestId("glucose-trace").locator(".recharts-xAxis-tick-labels text");
  await expect(labels.first()).toBeVisible();
  return labels.allTextContents();
}

export interface StatisticsV2 {
  hypoglycemiaRisk: "minimal" | "low" | "moderate" | "high" | null;
  nValues: number;
  nDays: number;
  utilizationPercent: number;
}

const text = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const DAY = 86_400_000;

/** Asks the service's v2 statistics for a window with target ranges of the given bounds. */
export function serviceStatisticsFor<T = StatisticsV2>(
  username: SandboxUsername,
  window: { startDate: string; endDate: string },
  targetRanges: Array<{ name: string; startTime: string; endTime: string; bounds: readonly number[] }>,
): Promise<T> {
  return serviceJson<T>(username, `v2/users/self/statistics?${new URLSearchParams(window)}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      targetRanges: targetRanges.map(({ bounds: [urgentLow, low, high], ...r }) => ({
        ...r,
        egvRanges: [
          { name: "urgentLow", bound: urgentLow },
          { name: "low", bound: low },
          { name: "high", bound: high },
        ],
      })),
    }),
  });
}

/**
 * The service's v2 statistics for the window the overview summarizes: the 14 days up to the newest
 * EGV (dataRange), the end one second past it, the whole day with the consensus bounds in the
 * data's unit (lib/dashboard/overview.ts asks the same). With API v3 the dashboard computes them
 * itself with the service's method: the test compares them with these all the same.
 */
export async function serviceStatistics(username: SandboxUsername, unit: Unit): Promise<StatisticsV2> {
  const range = await serviceDataRange(username);
  const endMs = Date.parse(`${range.egvs!.end.systemTime}Z`);
  // The page's window (lib/dashboard/overview-model overviewWindows): 14 days back from a second past the newest reading.
  const window = { startDate: text(endMs + 1000 - 14 * DAY), endDate: text(endMs + 1000) };
  const bounds = unit === "mg/dL" ? [54, 70, 180] : [3.0, 3.9, 10.0];
  return serviceStatisticsFor(username, window, [
    { name: "Whole day", startTime: "00:00:00", endTime: "00:00:00", bounds },
  ]);
}

/** The "Glucose service" cell of a row of the statistics table (API v2 mode only). */
export function serviceCell(page: Page, measure: string | RegExp) {
  return page
    .getByTestId("statistics-comparison")
    .getByRole("row", { name: measure })
    .getByRole("cell")
    .nth(1);
}

/** The "This dashboard" cell of a row of the statistics table. */
export function ourCell(page: Page, measure: string | RegExp) {
  return page
    .getByTestId("statistics-comparison")
    .getByRole("row", { name: measure })
    .getByRole("cell")
    .first();
}

/**
 * The cell that holds the service's statistics for a measure: its own column with API v2; with v3,
 * which has none, the dashboard's, computed with the service's method.
 */
export const statisticsCell = (page: Page, measure: string | RegExp) =>
  apiVersion() === "v2" ? serviceCell(page, measure) : ourCell(page, measure);

export interface RawEvent {
  systemTime: string;
  displayTime: string;
  /** v3 also bloodGlucose and notes. */
  eventType: "carbs" | "insulin" | "exercise" | "health" | "bloodGlucose" | "notes";
  eventSubType: string | null;
  value: number | null;
  unit: string | null;
  eventId: string;
  /** v3 also updated: an entry the patient changed, shown as any other. */
  eventStatus: "created" | "updated" | "deleted";
}

export interface RawCalibration {
  systemTime: string;
  displayTime: string;
  value: number;
  unit: "mg/dL" | "mmol/L";
}

/**
 * A data group's records as the service holds them, in the API version the dashboard reads
 * (v3 has event types v2 lacks, bloodGlucose and notes, and sends calibrations in mg/dL), shaped
 * as v2's (eventId for v3's recordId, value a number, times without zone), for the window a page
 * shows: the `days` receiver days (displayTime) ending on the day of the group's own newest record
 * (the record pages), or `days` × 24 hours up to the newest EGV, nothing after it (the overview's
 * trace). A day more is read before, then the days are kept by displayTime.
 */
export async function rawRecords<T>(
  username: SandboxUsername,
  group: "events" | "calibrations",
  days: number,
  anchor: "own" | "egvs",
): Promise<T[]> {
  const range = await suiteDataRange(username);
  const bounds = anchor === "egvs" ? range.egvs : range[group];
  if (!bounds) return [];
  const endMs = Date.parse(`${bounds.end.systemTime}Z`);
  const own = anchor === "own";
  const startMs = endMs - days * DAY;
  const records = await readGroup(username, group, own ? startMs - DAY : startMs, endMs);
  const lastDayMs = Date.parse(`${bounds.end.displayTime.slice(0, 10)}T00:00:00Z`);
  const firstDay = text(lastDayMs - (days - 1) * DAY).slice(0, 10);
  return records.filter(
    (r) =>
      Date.parse(`${r.systemTime}Z`) >= startMs - (own ? DAY : 0) &&
      Date.parse(`${r.systemTime}Z`) <= endMs &&
      (!own || r.displayTime.slice(0, 10) >= firstDay),
  ) as T[];
}

type Stamped = { systemTime: string; displayTime: string };

/** The group's records from `fromMs` to `toMs`, both included, read with the suite's API version. */
async function readGroup(
  username: SandboxUsername,
  group: "events" | "calibrations",
  fromMs: number,
  toMs: number,
): Promise<Stamped[]> {
  const records: Array<Stamped & Record<string, unknown>> = [];
  if (apiVersion() === "v2") {
    // v2: both ends included, at most 90 days a request.
    for (let from = fromMs; from <= toMs; from += 90 * DAY) {
      const to = Math.min(from + 90 * DAY - 1000, toMs);
      const query = new URLSearchParams({ startDate: text(from), endDate: text(to) });
      const body = await serviceJson<Record<string, Stamped[]>>(username, `v2/users/self/${group}?${query}`);
      records.push(...body[group]!);
    }
    return records;
  }
  // v3: the end excluded, at most 30 days a request.
  const endMs = toMs + 1000;
  for (let from = fromMs; from < endMs; from += 30 * DAY) {
    const to = Math.min(from + 30 * DAY, endMs);
    const query = new URLSearchParams({ startDate: text(from), endDate: text(to) });
    const body = await serviceJson<{ records: Array<Record<string, unknown> & Stamped> }>(
      username,
      `v3/users/self/${group}?${query}`,
    );
    for (const r of body.records) {
      const times = { systemTime: r.systemTime.slice(0, 19), displayTime: r.displayTime.slice(0, 19) };
      records.push(
        group === "events"
          ? {
              ...times,
              eventType: r.eventType,
              eventSubType: r.eventSubType ?? null,
              value: r.value === null || r.value === undefined || r.value === "" ? null : Number(r.value),
              unit: r.unit ?? null,
              eventId: r.recordId,
              eventStatus: r.eventStatus,
            }
          : { ...times, value: r.value, unit: r.unit },
      );
    }
  }
  return records;
}
