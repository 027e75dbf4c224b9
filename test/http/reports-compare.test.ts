import { beforeAll, describe, expect, inject, it } from "vitest";
import { parseDateTime } from "@/lib/cgm/datetime";
import type { ComparisonReport } from "@/lib/reports/comparison/comparison-report";
import { dayCount, previousPatientDays } from "@/lib/reports/period/patient-days";
import type { ReportSummary } from "@/lib/reports/summary/summary";
import { type DashboardSession, signIn } from "../support/dashboard-client";
import { dt } from "../support/sandbox-client";
import { apiVersion, chooseUnit, serviceOf, signInWithService } from "../support/service-reference";

/**
 * GET /api/reports/compare over HTTP against the embedded sandbox: each period's metrics are the
 * summary API's for the same window, the earlier period ends a second before the recent one
 * starts, the attribution adds up, bad input is a 400, and the empty account and an empty earlier
 * period are answered, not failed.
 */

const base = inject("baseUrl");
const DAY = 86_400_000;
let user1: DashboardSession;

type Answer = { comparison: ComparisonReport | null; error?: string; message?: string };

async function compare(s: DashboardSession, query: string) {
  const res = await fetch(`${base}/api/reports/compare?${query}`, { headers: { Cookie: s.cookie } });
  return { res, body: (await res.json()) as Answer };
}

async function summary(s: DashboardSession, period: { startDate: string; endDate: string }) {
  const q = new URLSearchParams({ startDate: period.startDate, endDate: period.endDate });
  const res = await fetch(`${base}/api/reports/summary?${q}`, { headers: { Cookie: s.cookie } });
  expect(res.status).toBe(200);
  // The summary's metrics; its target group and goals are the summary's own (no group here), and
  // its days of wear are the FHIR export's (lib/fhir), which a comparison does not state.
  const { targetGroup: _, goals: __, daysOfWear: ___, ...metrics } = (await res.json()) as ReportSummary;
  return metrics;
}

async function egvBounds(s: DashboardSession) {
  const range = await (await serviceOf(s)("v2/users/self/dataRange")).json();
  return {
    startMs: parseDateTime(range.egvs.start.systemTime)!,
    endMs: parseDateTime(range.egvs.end.systemTime)!,
    endDay: String(range.egvs.end.displayTime).slice(0, 10),
  };
}

const ms = (text: string) => parseDateTime(text)!;

beforeAll(async () => {
  user1 = await signInWithService(base, "SandboxUser1");
});

describe("GET /api/reports/compare", () => {
  it("answers 401 without a session", async () => {
    const res = await fetch(`${base}/api/reports/compare?days=14`);
    expect(res.status).toBe(401);
  });

  it("14 days: the last 14 receiver days of data against the 14 before, each equal to the summary API's answer", async () => {
    const { endMs, endDay } = await egvBounds(user1);
    const { res, body } = await compare(user1, "days=14");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const c = body.comparison!;
    // 14 days on the receiver's clock, the last the newest reading's (or a newer one's) day, the
    // recent period ending at the newest reading; the earlier period the 14 days before.
    expect(c.recent.patientDays!.lastDay >= endDay).toBe(true);
    expect(dayCount(c.recent.patientDays!)).toBe(14);
    expect(c.earlier.patientDays).toEqual(previousPatientDays(c.recent.patientDays!));
    expect(ms(c.recent.endDate)).toBeGreaterThanOrEqual(endMs);
    expect(ms(c.earlier.endDate)).toBe(ms(c.recent.startDate) - 1000);
    expect(c.recent.nValues).toBeGreaterThan(3000);
    expect(c.earlier.nValues).toBeGreaterThan(3000);

    expect(c.recent).toMatchObject(await summary(user1, c.recent));
    expect(c.earlier).toMatchObject(await summary(user1, c.earlier));
  });

  it("judges each period against the consensus goals, cumulative below 70 and above 180", async () => {
    const c = (await compare(user1, "days=14")).body.comparison!;
    expect(c.goals.group).toBe("standard");
    for (const which of ["earlier", "recent"] as const) {
      const t = c[which].timeInRanges!;
      const goals = c.goals[which]!;
      const goal = (metric: string) => goals.find((g) => g.metric === metric)!;
      expect(goal("timeBelow70").value).toBeCloseTo(t.veryLow + t.low, 9);
      expect(goal("timeBelow70").met).toBe(t.veryLow + t.low < 4);
      expect(goal("timeAbove180").value).toBeCloseTo(t.high + t.veryHigh, 9);
      expect(goal("timeBelow54").met).toBe(t.veryLow < 1);
      expect(goal("cv").value).toBeCloseTo(c[which].cv!, 9);
    }
  });

  it("changes are recent − earlier, and the blocks' contributions add up to each band's change", async () => {
    const c = (await compare(user1, "days=14")).body.comparison!;
    expect(c.changes.mean).toBeCloseTo(c.recent.mean! - c.earlier.mean!, 9);
    expect(c.changes.bands.inRange).toBeCloseTo(
      c.recent.timeInRanges!.inRange - c.earlier.timeInRanges!.inRange,
      9,
    );
    expect(c.blocks).toHaveLength(8);
    expect(c.blocks.map((b) => `${b.start}–${b.end}`)).toEqual([
      "00:00–03:00",
      "03:00–06:00",
      "06:00–09:00",
      "09:00–12:00",
      "12:00–15:00",
      "15:00–18:00",
      "18:00–21:00",
      "21:00–24:00",
    ]);
    for (const a of c.attribution) {
      const sum = a.contributions!.reduce((s, x) => s + x, 0);
      expect(sum).toBeCloseTo(a.change!, 9);
      // A sentence exactly for the changes of at least 1 point (as shown, one decimal).
      expect(a.sentence !== null).toBe(Math.abs(Math.round(a.change! * 10) / 10) >= 1);
    }
    expect(c.blocks.reduce((s, b) => s + b.recent.readings, 0)).toBe(c.recent.nValues);
  });

  it("30 days, and an explicit recent period, are compared with the same length before", async () => {
    const c30 = (await compare(user1, "days=30")).body.comparison!;
    expect(dayCount(c30.recent.patientDays!)).toBe(30);
    expect(dayCount(c30.earlier.patientDays!)).toBe(30);
    expect(c30.earlier).toMatchObject(await summary(user1, c30.earlier));

    const { endMs } = await egvBounds(user1);
    const recent = { startDate: dt(endMs - 10 * DAY), endDate: dt(endMs - 3 * DAY) };
    const { body } = await compare(user1, new URLSearchParams(recent).toString());
    const c = body.comparison!;
    expect(c.recent).toEqual(await summary(user1, recent));
    expect(c.earlier.startDate).toBe(dt(endMs - 17 * DAY - 1000));
    expect(c.earlier.endDate).toBe(dt(endMs - 10 * DAY - 1000));
    expect(c.earlier).toEqual(await summary(user1, c.earlier));
  });

  it("a recent period at the start of the data: the earlier period is empty, its metrics and changes null", async () => {
    const { startMs } = await egvBounds(user1);
    const { res, body } = await compare(
      user1,
      new URLSearchParams({ startDate: dt(startMs), endDate: dt(startMs + 7 * DAY) }).toString(),
    );
    expect(res.status).toBe(200);
    const c = body.comparison!;
    expect(c.earlier.nValues).toBe(0);
    expect(c.earlier.timeInRanges).toBeNull();
    expect(c.recent.nValues).toBeGreaterThan(0);
    expect(c.changes.bands.inRange).toBeNull();
    expect(c.changes.mean).toBeNull();
    expect(c.attribution.every((a) => a.change === null && a.sentence === null)).toBe(true);
  });

  it.each([
    ["days=0", /at least 1 day/],
    ["days=91", /at most 90 days/],
    ["days=fourteen", /whole number/],
    ["startDate=2026-01-01T00:00:00", /endDate is required/],
    ["startDate=2026-01-10T00:00:00&endDate=2026-01-01T00:00:00", /startDate must be before endDate/],
    ["startDate=2025-01-01T00:00:00&endDate=2025-06-01T00:00:00", /at most 90 days/],
    ["startDate=2026-02-30T00:00:00&endDate=2026-03-05T00:00:00", /real calendar date/],
    ["startDate=yesterday&endDate=today", /DateTime/],
    // Both dates may be read; the period compared with them may not (it starts in 1999).
    [
      "startDate=2000-01-20&endDate=2000-03-01",
      /^the period before 2000-01-20, which this period is compared with, would start on 1999-12-09, before 2000-01-01; choose a later period$/,
    ],
  ])("answers 400 for %s, saying what to change", async (query, message) => {
    const { res, body } = await compare(user1, query);
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(body.message).toMatch(message);
  });

  it("words the attribution in the patient's unit (SandboxUser3, mmol/L)", async () => {
    const user3 = await signIn(base, "SandboxUser3");
    // API v3 sends mg/dL only: the patient's unit is then the one they chose.
    if (apiVersion() === "v3") await chooseUnit(base, user3, "mmol/L");
    const c = (await compare(user3, "days=14")).body.comparison!;
    expect(c.unit).toBe("mmol/L");
    expect(c.recent).toMatchObject(await summary(user3, c.recent));
    for (const a of c.attribution) if (a.sentence) expect(a.sentence).toMatch(/mmol\/L/);
  });

  it("an account without readings (SandboxUser6): no comparison by days; empty periods by dates", async () => {
    const user6 = await signIn(base, "SandboxUser6");
    const { res, body } = await compare(user6, "days=14");
    expect(res.status).toBe(200);
    expect(body.comparison).toBeNull();
    const dated = (await compare(user6, "startDate=2026-01-01&endDate=2026-01-14")).body.comparison!;
    expect(dated.recent).toMatchObject({
      startDate: "2026-01-01T00:00:00",
      endDate: "2026-01-14T23:59:59",
      nValues: 0,
    });
    expect(dated.earlier.nValues).toBe(0);
    expect(dated.changes.mean).toBeNull();
  });
});

describe("the compare page", () => {
  const page = (query: string) =>
    fetch(`${base}/reports/compare?${query}`, { headers: { Cookie: user1.cookie } }).then(async (res) => ({
      status: res.status,
      html: await res.text(),
    }));

  it("a period whose earlier period starts before 2000: the page says to choose a later one, not a 500", async () => {
    const { status, html } = await page("startDate=2000-01-20&endDate=2000-03-01");
    expect(status).toBe(200);
    expect(html).toContain('data-testid="compare-invalid"');
    expect(html).toContain("would start on 1999-12-09, before 2000-01-01; choose a later period");
  });

  it.each([
    ["the first days of 2000", "startDate=2000-01-08&endDate=2000-01-14"],
    ["the last days of 2099", "startDate=2099-12-01&endDate=2099-12-31"],
    ["90 days", "startDate=2026-01-01&endDate=2026-03-31"],
  ])("%s: compared (each period may be read)", async (_, query) => {
    const { status, html } = await page(query);
    expect(status).toBe(200);
    expect(html).toContain('id="compare-periods-heading"');
  });
});
