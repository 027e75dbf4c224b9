import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseDateTime } from "@/lib/cgm/datetime";
import { addDays, patientDaysText } from "@/lib/reports/period/patient-days";
import { csvRecords } from "../support/csv";
import {
  type DashboardSession,
  dashboardApp,
  developer,
  proxyGet,
  signIn,
} from "../support/dashboard-client";
import { dt } from "../support/sandbox-client";
import { serviceReader } from "../support/service-reference";

/**
 * One clock for the patient's days, over HTTP against the embedded sandbox, for SandboxUser4,
 * whose receiver runs on Chicago time (UTC−6 in winter): a day picked in the export and compare
 * forms is that day on the receiver's clock, midnight to midnight, not a UTC day (which would
 * run from 18:00 the day before to 17:59 on the receiver); the AGP's label names the days its
 * daily profiles show; the record pages' "last 7 days" are the receiver's days, not 7 × 24 hours.
 */

const base = inject("baseUrl");
const version = inject("apiVersion");
const DAY = 86_400_000;
let user4: DashboardSession;
/** SandboxUser4's data straight from the service, whichever API the dashboard reads. */
let service: Awaited<ReturnType<typeof serviceReader>>;

interface Egv {
  systemTime: string;
  displayTime: string;
}

beforeAll(async () => {
  user4 = await signIn(base, "SandboxUser4");
  service = await serviceReader(base, "SandboxUser4");
});

async function dataRange() {
  return (await service("v2/users/self/dataRange")).json();
}

/** The service's own readings of the receiver's day `day`: read widely, kept by displayTime. */
async function serviceDay(day: string): Promise<Egv[]> {
  const start = parseDateTime(`${day}T00:00:00`)!;
  const q = new URLSearchParams({ startDate: dt(start - DAY), endDate: dt(start + 2 * DAY) });
  const res = await service(`v2/users/self/egvs?${q}`);
  expect(res.status).toBe(200);
  const { egvs } = (await res.json()) as { egvs: Egv[] };
  return egvs.filter((e) => e.displayTime.startsWith(day));
}

/** A recent whole day (not today) whose readings run from its first to its last five minutes. */
async function fullDay(): Promise<{ day: string; readings: Egv[] }> {
  const range = await dataRange();
  // The receiver is behind UTC: this user's day must not be read as a UTC day for the test to mean anything.
  expect(parseDateTime(range.egvs.end.displayTime)! - parseDateTime(range.egvs.end.systemTime)!).toBeLessThan(
    0,
  );
  const lastDay = String(range.egvs.end.displayTime).slice(0, 10);
  for (let back = 1; back <= 10; back++) {
    const day = addDays(lastDay, -back);
    const readings = await serviceDay(day);
    const times = readings.map((e) => e.displayTime.slice(11, 16)).sort();
    // A whole day of wear: from midnight to midnight, and without a gap inside (a sensor change
    // or signal loss would leave fewer readings than the export test's bound).
    if (times[0]! <= "00:04" && times.at(-1)! >= "23:55" && readings.length > 270) return { day, readings };
  }
  throw new Error("no full day of readings in the last 10 days");
}

const sortedTimes = (egvs: Egv[]) => egvs.map((e) => e.systemTime).sort();

describe("a receiver on US time (SandboxUser4, Chicago)", () => {
  it("the export of day D holds exactly the readings whose displayTime falls on D, 00:00 to 23:55", async () => {
    const { day, readings } = await fullDay();
    const res = await fetch(`${base}/api/reports/export?from=${day}&to=${day}`, {
      headers: { Cookie: user4.cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain(`cgm-export_Patient_${day}_${day}.zip`);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const rows = csvRecords(strFromU8(files["egvs.csv"]!)).records as unknown as Egv[];
    expect(rows.length).toBeGreaterThan(270);
    expect(rows.every((r) => r.displayTime.startsWith(day))).toBe(true);
    const times = rows.map((r) => r.displayTime.slice(11)).sort();
    expect(times[0]! <= "00:04:59").toBe(true);
    expect(times.at(-1)! >= "23:55:00").toBe(true);
    // None of D−1 or D+1, and none of D left out.
    expect(sortedTimes(rows)).toEqual(sortedTimes(readings));
    const methods = strFromU8(files["methods.txt"]!);
    expect(methods).toContain(`Period: ${day} to ${day} on the receiver's clock (displayTime)`);
  });

  it("the export page offers the patient's days and says which clock", async () => {
    const { day } = await fullDay();
    const html = await (
      await fetch(`${base}/reports/export?from=${day}&to=${day}`, { headers: { Cookie: user4.cookie } })
    ).text();
    expect(html).toMatch(new RegExp(`name="from"[^>]*value="${day}"`));
    expect(html).toContain(`href="/api/reports/export?from=${day}&amp;to=${day}"`);
    expect(html).toContain("on your receiver&#x27;s clock");
  });

  it("comparing day D counts D's readings on the receiver's clock, against D−1", async () => {
    const { day, readings } = await fullDay();
    const res = await fetch(`${base}/api/reports/compare?startDate=${day}&endDate=${day}`, {
      headers: { Cookie: user4.cookie },
    });
    expect(res.status).toBe(200);
    const c = (await res.json()).comparison;
    expect(c.recent.patientDays).toEqual({ firstDay: day, lastDay: day });
    expect(c.recent.nValues).toBe(readings.length);
    const before = addDays(day, -1);
    expect(c.earlier.patientDays).toEqual({ firstDay: before, lastDay: before });
    expect(c.earlier.nValues).toBe((await serviceDay(before)).length);
    // Chicago's midnight is 06:00 UTC in winter: a UTC day would start at the receiver's 18:00.
    expect(c.recent.startDate).toBe(`${day}T06:00:00`);

    const html = await (
      await fetch(`${base}/reports/compare?startDate=${day}&endDate=${day}`, {
        headers: { Cookie: user4.cookie },
      })
    ).text();
    expect(html).toMatch(new RegExp(`id="compare-start"[^>]*value="${day}"`));
    expect(html).toContain("on your receiver&#x27;s clock");
  });

  it("the AGP's label names the first and last day of its daily profiles, the newest reading's day last", async () => {
    const range = await dataRange();
    const html = await (await fetch(`${base}/reports`, { headers: { Cookie: user4.cookie } })).text();
    const period = /data-period="(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})"/.exec(html);
    const days = [...html.matchAll(/data-day="(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1]);
    expect(period).not.toBeNull();
    expect(days).toHaveLength(14);
    expect([period![1], period![2]]).toEqual([days[0], days.at(-1)]);
    expect(days.at(-1)! >= String(range.egvs.end.displayTime).slice(0, 10)).toBe(true);
    expect(html).toMatch(/\(14 days\)/);
    // The date fields start from the same days.
    expect(html).toMatch(new RegExp(`name="startDay"[^>]*value="${days[0]}"`));
  });
});

describe("the record pages' last 7 days on a receiver on US time (SandboxUser4, Chicago)", () => {
  const service = developer(base, dashboardApp(inject("dataDir")));
  const MINUTE = 60_000;
  const DAYS = 7;

  interface PageRecord {
    systemTime: string;
    displayTime: string;
  }
  const dayOf = (r: PageRecord) => r.displayTime.slice(0, 10);
  const clockOf = (r: PageRecord) => r.displayTime.slice(11);
  const bySystemTime = (a: PageRecord, b: PageRecord) => (a.systemTime < b.systemTime ? -1 : 1);

  afterAll(async () => {
    await service.faults({});
  });

  /** The group's records as the service holds them now: the last 12 days, oldest first. */
  async function serviceRecords(group: "events" | "calibrations"): Promise<PageRecord[]> {
    const now = Date.now();
    const q = new URLSearchParams({ startDate: dt(now - 12 * DAY), endDate: dt(now) });
    // Through the proxy in the server's API version (v3 only serves v3 paths: records in `records`).
    const res = await proxyGet(base, user4, `${version}/users/self/${group}?${q}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    return ((version === "v3" ? body.records : body[group]) as PageRecord[]).sort(bySystemTime);
  }

  /**
   * What the page must cover when `newest` is the newest record: the 7 receiver days ending on its
   * day, and, to tell these days from 7 × 24 hours back from it, the day before them with its
   * records later in the day than `newest` (a rolling window would list them).
   */
  function expected(records: PageRecord[], newest: PageRecord) {
    const lastDay = dayOf(newest);
    const firstDay = addDays(lastDay, -(DAYS - 1));
    const dayBefore = addDays(firstDay, -1);
    const released = records.filter((r) => r.systemTime <= newest.systemTime);
    return {
      firstDay,
      lastDay,
      listed: released.filter((r) => dayOf(r) >= firstDay),
      firstDayRecords: released.filter((r) => dayOf(r) === firstDay),
      lateDayBefore: released.filter((r) => dayOf(r) === dayBefore && clockOf(r) > clockOf(newest)),
    };
  }

  /**
   * A delay of the service's releases (its releaseDelayMinutes fault, whole quarter hours under a
   * day) at which the newest record falls earlier in its day than a record of the day before the
   * 7 days: the sandbox is live, so where the check bites depends on the hour the test runs.
   */
  function telling(records: PageRecord[]): number {
    const now = Date.now();
    for (let delay = 0; delay < 24 * 60; delay += 15) {
      // The newest record the service releases now at this delay. The delay is set, and the page
      // read, a moment later: a record the next few minutes would release moves the newest, so
      // such a delay is passed over.
      const cutoff = now - delay * MINUTE;
      const at = (r: PageRecord) => parseDateTime(r.systemTime)!;
      if (records.some((r) => at(r) > cutoff && at(r) <= cutoff + 5 * MINUTE)) continue;
      const newest = records.filter((r) => at(r) <= cutoff).at(-1);
      if (!newest) continue;
      const e = expected(records, newest);
      if (e.lateDayBefore.length > 0 && e.firstDayRecords.length > 0) return delay;
    }
    throw new Error("no release delay under a day tells the receiver's days from 7 × 24 hours");
  }

  async function pageAt(path: string, group: "events" | "calibrations") {
    const records = await serviceRecords(group);
    const delay = telling(records);
    await service.faults({ releaseDelayMinutes: delay });
    try {
      // A record released between the dataRange and the page would move the newest: then again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const end = async () =>
          (await (await proxyGet(base, user4, `${version}/users/self/dataRange`)).json())[group]
            .end as PageRecord;
        const newest = await end();
        const res = await fetch(`${base}${path}`, { headers: { Cookie: user4.cookie } });
        expect(res.status).toBe(200);
        const html = await res.text();
        if ((await end()).systemTime !== newest.systemTime) continue;
        const tbody = /<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? "";
        const shown = [...tbody.matchAll(/<time datetime="([^"]+)"/gi)].map((m) => m[1]);
        return { html, shown, newest, ...expected(records, newest) };
      }
      throw new Error("the service kept releasing records while the page was read");
    } finally {
      await service.faults({});
    }
  }

  it.each([
    ["/dashboard/events?days=7&deleted=show", "events"],
    ["/dashboard/calibrations?days=7", "calibrations"],
  ] as const)(
    "%s lists exactly the records of the 7 receiver days ending on the newest one's day",
    async (path, group) => {
      const page = await pageAt(path, group);
      // The receiver is behind UTC, so its days are not UTC days.
      expect(parseDateTime(page.newest.displayTime)! - parseDateTime(page.newest.systemTime)!).toBeLessThan(
        0,
      );

      // The days are named, first and last, as the AGP names its period.
      expect(page.html).toContain(`data-period="${page.firstDay}_${page.lastDay}"`);
      expect(page.html).toContain(patientDaysText({ firstDay: page.firstDay, lastDay: page.lastDay }));
      expect(page.html).toMatch(/\(7 days\)/);

      // The first day from its first minutes on the receiver's clock (UTC's midnight is its 18:00 the day before).
      const earliest = page.firstDayRecords.sort((a, b) => (clockOf(a) < clockOf(b) ? -1 : 1))[0]!;
      expect(page.shown).toContain(earliest.displayTime);
      // The day before not at all, though 7 × 24 hours back from the newest record reach into its evening.
      const latest = page.lateDayBefore.at(-1)!;
      expect(clockOf(latest) > clockOf(page.newest)).toBe(true);
      expect(page.shown).not.toContain(latest.displayTime);
      // And nothing else missing or added: the page's rows are the service's records of the 7 days.
      expect([...page.shown].sort()).toEqual(page.listed.map((r) => r.displayTime).sort());
      expect(page.shown).toContain(page.newest.displayTime);
    },
  );
});
