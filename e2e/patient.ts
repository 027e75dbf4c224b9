import { expect, type Page } from "@playwright/test";
import { signInThroughSandbox } from "./sign-in";

/**
 * What the patient-dashboard tests share: signing in to a user's dashboard, and asking the service
 * (through the dashboard's own proxy, with the page's session cookie) what the page should show,
 * so the tests compare the screen with the service's answer instead of with numbers written down
 * today (the sandbox's data is live: a new reading every five minutes).
 */

export type SandboxUsername = `SandboxUser${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8}`;

/** Signs in as `username` and waits for the dashboard to have drawn. */
export async function openDashboard(page: Page, username: SandboxUsername) {
  await signInThroughSandbox(page, username);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Your glucose" })).toBeVisible();
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

/**
 * The service's v2 statistics for the window the overview summarizes: the 14 days up to the newest
 * EGV (dataRange), the end one second past it, the whole day with the consensus bounds in the
 * data's unit (lib/dashboard/overview.ts asks the same).
 */
export async function serviceStatistics(page: Page, unit: "mg/dL" | "mmol/L"): Promise<StatisticsV2> {
  const bounds = unit === "mg/dL" ? [54, 70, 180] : [3.0, 3.9, 10.0];
  return page.evaluate(async ([urgentLow, low, high]) => {
    const range = await (await fetch("/api/cgm/v2/users/self/dataRange")).json();
    const endMs = Date.parse(`${range.egvs.end.systemTime}Z`);
    const text = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    const query = new URLSearchParams({
      // The page's window (lib/dashboard/overview-model overviewWindows): 14 days back from a second past the newest reading.
      startDate: text(endMs + 1000 - 14 * 86_400_000),
      endDate: text(endMs + 1000),
    });
    const res = await fetch(`/api/cgm/v2/users/self/statistics?${query}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        targetRanges: [
          {
            name: "Whole day",
            startTime: "00:00:00",
            endTime: "00:00:00",
            egvRanges: [
              { name: "urgentLow", bound: urgentLow },
              { name: "low", bound: low },
              { name: "high", bound: high },
            ],
          },
        ],
      }),
    });
    if (!res.ok) throw new Error(`statistics: ${res.status} ${await res.text()}`);
    return res.json();
  }, bounds);
}

/** The "Glucose service" cell of a row of the statistics table. */
export function serviceCell(page: Page, measure: string | RegExp) {
  return page
    .getByTestId("statistics-comparison")
    .getByRole("row", { name: measure })
    .getByRole("cell")
    .nth(1);
}

export interface RawEvent {
  systemTime: string;
  displayTime: string;
  eventType: "carbs" | "insulin" | "exercise" | "health";
  eventSubType: string | null;
  value: number | null;
  unit: string | null;
  eventId: string;
  eventStatus: "created" | "deleted";
}

export interface RawCalibration {
  systemTime: string;
  displayTime: string;
  value: number;
  unit: "mg/dL" | "mmol/L";
}

/**
 * A data group's v2 records as the service holds them, through the proxy, for the window a page
 * shows: `days` days up to the group's own newest record (the record pages), or up to the newest
 * EGV and one second past it, nothing after the EGV (the overview's trace). Windows longer than the
 * service allows are split by the proxy's client.
 */
export async function rawRecords<T>(
  page: Page,
  group: "events" | "calibrations",
  days: number,
  anchor: "own" | "egvs",
): Promise<T[]> {
  return page.evaluate(
    async ([g, d, a]) => {
      const range = await (await fetch("/api/cgm/v2/users/self/dataRange")).json();
      const bounds = a === "egvs" ? range.egvs : range[g];
      if (!bounds) return [];
      const endMs = Date.parse(`${bounds.end.systemTime}Z`);
      const text = (ms: number) => new Date(ms).toISOString().slice(0, 19);
      const query = new URLSearchParams({
        startDate: text(endMs - Number(d) * 86_400_000),
        endDate: text(a === "egvs" ? endMs + 1000 : endMs),
      });
      const res = await fetch(`/api/cgm/v2/users/self/${g}?${query}`);
      if (!res.ok) throw new Error(`${g}: ${res.status} ${await res.text()}`);
      const records: Array<{ systemTime: string }> = (await res.json())[g];
      return records.filter((r) => Date.parse(`${r.systemTime}Z`) <= endMs);
    },
    [group, String(days), anchor] as const,
  ) as Promise<T[]>;
}
