import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AlertV3Read,
  alertsV3ReadSchema,
  dataRangeV3ReadSchema,
  devicesV3ReadSchema,
  eventsV3ReadSchema,
  MS_PER_DAY,
  parseDateTime,
} from "@/lib/cgm";
import { type AppServer, startAppServer, UNLIMITED_CALL_BUDGET } from "../support/app-server";
import { type DashboardSession, signIn } from "../support/dashboard-client";
import { dt } from "../support/sandbox-client";
import { serviceReader } from "../support/service-reference";

/**
 * API v3's alerts, alert schedules, meter readings and notes on the dashboard's pages (server in
 * v3 mode, CGM_API_VERSION=v3), checked against the sandbox's own v3 answers read directly: the
 * alerts page lists every time an alert started sounding in its period; the devices page says a
 * schedule's override; the events page shows notes' text and meter readings.
 */

let server: AppServer;
let base: string;
const sessions = new Map<string, DashboardSession>();
const readers = new Map<string, Awaited<ReturnType<typeof serviceReader>>>();

async function page(username: string, pathAndQuery: string): Promise<string> {
  let s = sessions.get(username);
  if (!s) {
    s = await signIn(base, username);
    sessions.set(username, s);
  }
  const res = await fetch(`${base}${pathAndQuery}`, { headers: { Cookie: s.cookie } });
  expect(res.status, `${username} ${pathAndQuery}`).toBe(200);
  return res.text();
}

/** The sandbox's own answer, as another app of the same user. */
async function service(username: string, pathAndQuery: string): Promise<unknown> {
  let r = readers.get(username);
  if (!r) {
    r = await serviceReader(base, username);
    readers.set(username, r);
  }
  const res = await r(pathAndQuery);
  if (!res.ok) throw new Error(`${pathAndQuery}: ${res.status}`);
  return res.json();
}

/** The service's v3 alerts of the inclusive window [startMs, endMs], in its 30-day [start, end) windows. */
async function serviceAlerts(username: string, startMs: number, endMs: number): Promise<AlertV3Read[]> {
  const out: AlertV3Read[] = [];
  for (let from = startMs; from <= endMs; from += 30 * MS_PER_DAY) {
    const to = Math.min(from + 30 * MS_PER_DAY, endMs + 1000);
    const body = await service(username, `v3/users/self/alerts?startDate=${dt(from)}&endDate=${dt(to)}`);
    out.push(...alertsV3ReadSchema.parse(body).records);
  }
  return out;
}

/** Text as React writes it into HTML. */
const html = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");

beforeAll(async () => {
  server = await startAppServer({ ...UNLIMITED_CALL_BUDGET, CGM_API_VERSION: "v3" });
  base = server.url;
}, 90_000);

afterAll(async () => {
  await server?.stop();
});

describe("the alerts page (v3)", () => {
  it.each([7, 30])(
    "SandboxUser2, %i days: one row per time an alert started sounding at the service",
    async (days) => {
      const body = await page("SandboxUser2", `/dashboard/alerts?days=${days}`);
      const window = body.match(/data-window="([^"_]+)_([^"]+)"/);
      expect(window).not.toBeNull();
      const startMs = parseDateTime(window![1]!)!;
      const endMs = parseDateTime(window![2]!)!;
      expect(Math.round((endMs - startMs) / MS_PER_DAY)).toBeGreaterThanOrEqual(days - 1);

      const sounded = (await serviceAlerts("SandboxUser2", startMs, endMs))
        .filter((a) => a.alertState === "activeAlarming")
        .sort((a, b) => a.systemTime.localeCompare(b.systemTime));
      expect(sounded.length).toBeGreaterThan(0);

      const rows = [...body.matchAll(/<tr data-alert="([^"]+)"[^>]*>.*?<time dateTime="([^"]+)"/g)];
      expect(rows.length).toBe(sounded.length);
      expect(body).toContain(`>${sounded.length} alerts sounded, newest first<`);
      // Newest first: the last row is the first alert of the period, on the receiver's clock.
      expect(rows.at(-1)?.[2]).toBe(sounded[0]!.displayTime);
      expect(rows[0]?.[2]).toBe(sounded.at(-1)!.displayTime);
      // Every sounding: which alert, when (two alerts may start at one reading).
      const key = (name: string, time: string) => `${time} ${name}`;
      expect(rows.map((r) => key(r[1]!, r[2]!)).sort()).toEqual(
        sounded.map((a) => key(a.alertName, a.displayTime)).sort(),
      );
    },
  );

  it("SandboxUser7's alerts are named in words", async () => {
    const body = await page("SandboxUser7", "/dashboard/alerts?days=30");
    expect(body).toMatch(
      />(Urgent low|Low|High|Rising fast|Falling fast|Urgent low soon|Signal loss|No readings)</,
    );
    expect(body).toMatch(/Acknowledged \(snoozed\)|Condition cleared/);
  });
});

describe("the devices page (v3)", () => {
  it("SandboxUser7: the schedule in use and its vibrate override, said plainly", async () => {
    const devices = devicesV3ReadSchema.parse(await service("SandboxUser7", "v3/users/self/devices")).records;
    const schedules = devices.flatMap((d) => d.alertSchedules);
    const withOverride = schedules.find((s) => s.alertScheduleSettings.override);
    expect(withOverride?.alertScheduleSettings.override?.mode).toBe("vibrate");
    const body = await page("SandboxUser7", "/dashboard/devices");
    expect(body).toContain('data-testid="override" data-mode="vibrate"');
    expect(body).toMatch(
      withOverride?.alertScheduleSettings.override?.isOverrideEnabled
        ? /On: vibrate only, until [^<]+ \(receiver&#x27;s clock\)/
        : /Off \(when on: vibrate only\)/,
    );
    expect(body).toContain("In use at the last upload");
    // G7 sound settings and per-alert delays.
    expect(body).toContain(">Sound<");
    expect(body).toContain(">Delay<");
  });
});

describe("the events page (v3)", () => {
  it("SandboxUser2: a note's text and a meter reading in the display unit", async () => {
    const range = dataRangeV3ReadSchema.parse(await service("SandboxUser2", "v3/users/self/dataRange"));
    const endMs = parseDateTime(range.events!.end.systemTime)!;
    const events = eventsV3ReadSchema.parse(
      await service(
        "SandboxUser2",
        `v3/users/self/events?startDate=${dt(endMs - 25 * MS_PER_DAY)}&endDate=${dt(endMs + 1000)}`,
      ),
    ).records;
    // An updated event is its latest version (§3.3: identity is recordId); deleted ones are hidden.
    const current = [...new Map(events.map((e) => [e.recordId, e])).values()].filter(
      (e) => e.eventStatus !== "deleted",
    );
    const note = current.find((e) => e.eventType === "notes" && e.text);
    const meter = current.find((e) => e.eventType === "bloodGlucose" && e.value !== null);
    expect(note).toBeDefined();
    expect(meter).toBeDefined();

    const body = await page("SandboxUser2", "/dashboard/events?days=30");
    expect(body).toContain(html(note!.text!));
    expect(meter!.unit).toBe("mg/dL");
    expect(body).toContain(`${meter!.value} mg/dL`);

    // The notes alone, counted in words that agree with the number ("1 note event").
    const notes = await page("SandboxUser2", "/dashboard/events?days=30&type=notes");
    const caption = notes.match(/>(\d+) (note events?), newest first</);
    expect(caption?.[2]).toBe(caption?.[1] === "1" ? "note event" : "note events");
  });
});

describe("the alerts page with API v2", () => {
  let v2: AppServer;
  beforeAll(async () => {
    v2 = await startAppServer({ ...UNLIMITED_CALL_BUDGET, CGM_API_VERSION: "v2" });
  }, 90_000);
  afterAll(async () => {
    await v2?.stop();
  });

  it("says alerts are available only through API v3, and lists none", async () => {
    const s = await signIn(v2.url, "SandboxUser2");
    const res = await fetch(`${v2.url}/dashboard/alerts`, { headers: { Cookie: s.cookie } });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain("Alerts need API v3");
    expect(body).not.toContain("data-alert=");
  });
});
