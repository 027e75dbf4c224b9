import { beforeAll, describe, expect, inject, it } from "vitest";
import { statisticsV2ResponseSchema } from "@/lib/cgm";
import { planStatistics, totalOf, windowCounts } from "@/lib/reports/statistics-by-window/model";
import {
  checkRows,
  checkStatisticsRequest,
  DAY_NIGHT_WINDOWS,
  MAX_WINDOWS,
  parseSaveBody,
  requestFromRows,
  requestFromWindows,
  targetRangeV2,
  v1RequestOf,
  type WindowRow,
} from "@/lib/reports/statistics-by-window/windows";
import { type DashboardSession, signIn } from "../support/dashboard-client";
import { bearer, connect, dt, registerApp } from "../support/sandbox-client";
import { apiVersion } from "../support/service-reference";

/**
 * The statistics editor's check is the service's: for every case of a table, the verdict of the
 * functions the browser runs (lib/reports/statistics-by-window/windows) equals the service's answer to the
 * same body, 400 or 200, in v2 and v1, and a 400 carries the very message the editor shows. The
 * service is asked twice: through the dashboard's proxy as the signed-in patient (which checks with
 * the same schemas before going upstream), and directly at the sandbox with a bearer token (so the
 * verdict is the service's own, not the proxy's). Then the windows' save route: a round trip, its
 * 400s, and the page showing what was saved.
 */

const base = inject("baseUrl");
const DAY = 86_400_000;
// Any valid window will do: the verdict depends on the body only. One day keeps each call cheap.
const END = Date.UTC(2026, 9, 20);
const QUERY = `startDate=${dt(END - DAY)}&endDate=${dt(END)}`;

let user1: DashboardSession;
let token: string;

beforeAll(async () => {
  user1 = await signIn(base, "SandboxUser1");
  const app = await registerApp(base, "Statistics editor suite");
  token = (await connect(base, app, "SandboxUser1")).access_token;
});

type Version = "v1" | "v2";

async function viaProxy(version: Version, body: unknown) {
  const res = await fetch(`${base}/api/cgm/${version}/users/self/statistics?${QUERY}`, {
    method: "POST",
    headers: { Cookie: user1.cookie, Origin: base, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function atService(version: Version, body: unknown) {
  const res = await fetch(`${base}/sandbox/${version}/users/self/statistics?${QUERY}`, {
    method: "POST",
    headers: { ...bearer(token), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const r = (
  name: string,
  startTime: string,
  endTime: string,
  urgentLow = "54",
  low = "70",
  high = "180",
): WindowRow => ({
  name,
  startTime,
  endTime,
  urgentLow,
  low,
  high,
});

/** Cases as the editor's rows: [what, rows, valid in v2, valid in v1]. */
const FORM_CASES: Array<[string, WindowRow[], boolean, boolean]> = [
  ["the default Day and Night", [r("Day", "06:00", "22:00"), r("Night", "22:00", "06:00")], true, true],
  ["one whole-day window (start = end)", [r("Whole day", "00:00", "00:00")], true, true],
  ["a whole day written 00:00–23:59:59", [r("Whole day", "00:00", "23:59:59")], true, true],
  ["a whole day starting at 07:30", [r("From breakfast", "07:30", "07:30")], true, true],
  [
    "an end of 23:59:59 meaning midnight",
    [r("Day", "06:00", "23:59:59"), r("Night", "00:00", "06:00")],
    true,
    true,
  ],
  [
    "three windows, one crossing midnight",
    [r("Night", "22:00", "06:00"), r("Morning", "06:00", "12:00"), r("Afternoon", "12:00", "22:00")],
    true,
    true,
  ],
  ["windows listed in any order", [r("Night", "22:00", "06:00"), r("Day", "06:00", "22:00")], true, true],
  [
    "a gap in coverage (21:00–22:00)",
    [r("Day", "06:00", "21:00"), r("Night", "22:00", "06:00")],
    false,
    false,
  ],
  ["an overlap (22:00–23:00)", [r("Day", "06:00", "23:00"), r("Night", "22:00", "06:00")], false, false],
  [
    "an end of 23:59 leaves the last minute uncovered",
    [r("Day", "06:00", "23:59"), r("Night", "00:00", "06:00")],
    false,
    false,
  ],
  ["one window that is not the whole day", [r("Day", "06:00", "22:00")], false, false],
  ["no windows at all", [], false, false],
  [
    "urgent low equal to low (v1 has no urgent low)",
    [r("Whole day", "00:00", "00:00", "70", "70", "180")],
    false,
    true,
  ],
  ["urgent low above low", [r("Whole day", "00:00", "00:00", "80", "70", "180")], false, true],
  [
    "low equal to high (v1's min may equal its max)",
    [r("Whole day", "00:00", "00:00", "54", "180", "180")],
    false,
    true,
  ],
  ["low above high", [r("Whole day", "00:00", "00:00", "54", "190", "180")], false, false],
  ["a missing name", [r("", "00:00", "00:00")], false, false],
  ["a name of spaces only (the editor trims it)", [r("   ", "00:00", "00:00")], false, false],
  [
    "the same name twice (the service allows it)",
    [r("Same", "06:00", "22:00"), r("Same", "22:00", "06:00")],
    true,
    true,
  ],
  ["a missing start time", [r("Day", "", "22:00"), r("Night", "22:00", "06:00")], false, false],
  ["negative and fractional bounds", [r("Whole day", "00:00", "00:00", "-3", "2.5", "2.75")], true, true],
  [
    "mmol/L-sized bounds",
    [r("Day", "06:00", "22:00", "3.0", "3.9", "10.0"), r("Night", "22:00", "06:00", "3", "4.4", "8")],
    true,
    true,
  ],
];

/** Bodies the editor cannot produce, judged by the same function the editor uses: [what, body, v2 ok, v1 body, v1 ok]. */
const V = (name: string, startTime = "00:00:00", endTime = "00:00:00") =>
  targetRangeV2(name, startTime, endTime, { urgentLow: 54, low: 70, high: 180 });
const RAW_CASES: Array<[string, unknown, boolean]> = [
  ["a name of spaces only, sent as is", { targetRanges: [V("   ")] }, true],
  ["no targetRanges", {}, false],
  ["targetRanges not an array", { targetRanges: "all day" }, false],
  [
    "egvRanges without high",
    { targetRanges: [{ ...V("W"), egvRanges: V("W").egvRanges.slice(0, 2) }] },
    false,
  ],
  [
    "egvRanges naming low twice",
    { targetRanges: [{ ...V("W"), egvRanges: [...V("W").egvRanges, { name: "low", bound: 75 }] }] },
    false,
  ],
  [
    "an unknown bound name",
    { targetRanges: [{ ...V("W"), egvRanges: [...V("W").egvRanges, { name: "veryHigh", bound: 250 }] }] },
    false,
  ],
  [
    "a bound that is not a number",
    {
      targetRanges: [
        { ...V("W"), egvRanges: [{ name: "urgentLow", bound: "54" }, ...V("W").egvRanges.slice(1)] },
      ],
    },
    false,
  ],
  [
    "a bound of null (what an empty input would send)",
    {
      targetRanges: [
        { ...V("W"), egvRanges: [{ name: "urgentLow", bound: null }, ...V("W").egvRanges.slice(1)] },
      ],
    },
    false,
  ],
  ["a start of 24:00:00", { targetRanges: [V("W", "24:00:00", "24:00:00")] }, false],
  [
    "a start without its leading zero",
    { targetRanges: [V("Day", "6:00:00", "22:00:00"), V("Night", "22:00:00", "6:00:00")] },
    false,
  ],
  ["a time without seconds", { targetRanges: [V("W", "00:00", "00:00")] }, false],
  ["unknown extra properties (ignored)", { targetRanges: [{ ...V("W"), colour: "blue" }], note: "x" }, true],
];

const V1_RAW_CASES: Array<[string, unknown, boolean]> = [
  [
    "v1: min above max",
    {
      targetRanges: [
        { name: "W", startTime: "00:00:00", endTime: "00:00:00", egvRange: { min: 181, max: 180 } },
      ],
    },
    false,
  ],
  [
    "v1: min equal to max",
    {
      targetRanges: [
        { name: "W", startTime: "00:00:00", endTime: "00:00:00", egvRange: { min: 100, max: 100 } },
      ],
    },
    true,
  ],
  [
    "v1: egvRange missing",
    { targetRanges: [{ name: "W", startTime: "00:00:00", endTime: "00:00:00" }] },
    false,
  ],
  ["v1: v2's egvRanges instead", { targetRanges: [V("W")] }, false],
];

/** The service's verdict and message, both ways, against the browser's. */
async function expectSameVerdict(version: Version, body: unknown, expectedOk: boolean) {
  const local = checkStatisticsRequest(version, body);
  expect(local.ok, "the case table's expectation").toBe(expectedOk);
  // With API v3 the dashboard's proxy serves no v1 or v2 path: the service alone says.
  const answers = [
    ...(apiVersion() === "v3" ? [] : [["proxy", await viaProxy(version, body)] as const]),
    ["service", await atService(version, body)] as const,
  ];
  for (const [how, answer] of answers) {
    expect(answer.status, `${version} via ${how}: ${JSON.stringify(answer.body).slice(0, 200)}`).toBe(
      local.ok ? 200 : 400,
    );
    if (!local.ok) expect(answer.body.message, `${version} via ${how}`).toBe(local.message);
  }
}

describe("the editor's check against the service, case by case", () => {
  describe.each(FORM_CASES)("%s", (_what, rows, v2Ok, v1Ok) => {
    const built = requestFromRows(rows);

    it("v2: the same verdict and message; the editor saves exactly when v2 accepts", async () => {
      await expectSameVerdict("v2", built.body, v2Ok);
      expect(checkRows(rows).body !== null, "checkRows lets it through").toBe(v2Ok);
    });

    it("v1 (low as min, high as max): the same verdict and message", async () => {
      await expectSameVerdict("v1", v1RequestOf(built.body!), v1Ok);
    });
  });

  it.each(RAW_CASES)("v2 body: %s", async (_what, body, ok) => {
    await expectSameVerdict("v2", body, ok);
  });

  it.each(V1_RAW_CASES)("%s", async (_what, body, ok) => {
    await expectSameVerdict("v1", body, ok);
  });

  it("an empty bound in the editor: nothing is built to send, and what it would carry (null) is refused", async () => {
    const rows = [r("Whole day", "00:00", "00:00", "54", "", "180")];
    expect(requestFromRows(rows).body).toBeNull();
    expect(checkRows(rows).issues.map((i) => i.message)).toContain("the low bound must be a number");
    const sent = JSON.parse(
      JSON.stringify({
        targetRanges: [
          targetRangeV2("Whole day", "00:00:00", "00:00:00", { urgentLow: 54, low: Number.NaN, high: 180 }),
        ],
      }),
    );
    expect((await atService("v2", sent)).status).toBe(400);
  });
});

describe("per-window counts from the service", () => {
  it("the isolated windows' counts add up to the service's answer for all windows together", async () => {
    const body = requestFromWindows(DAY_NIGHT_WINDOWS, "mg/dL");
    const plan = planStatistics("v2", body);
    const ask = async (b: unknown) =>
      statisticsV2ResponseSchema.parse((await (apiVersion() === "v3" ? atService : viaProxy)("v2", b)).body);
    const together = await ask(plan.together);
    const perWindow = await Promise.all(
      plan.perWindow.map(async (rs) => windowCounts(await Promise.all(rs.map(ask)))),
    );
    expect(perWindow.reduce((n, c) => n + totalOf(c), 0)).toBe(together.nValues);
    expect(perWindow.reduce((n, c) => n + (c.urgentLow ?? 0), 0)).toBe(together.nUrgentLow);
    expect(perWindow.reduce((n, c) => n + c.within, 0)).toBe(together.nWithinRange);
    expect(together.nValues).toBeGreaterThan(0);
  });
});

describe("/api/reports/statistics-windows", () => {
  const url = `${base}/api/reports/statistics-windows`;
  const save = (s: DashboardSession, body: unknown, origin: string | null = base) =>
    fetch(url, {
      method: "POST",
      headers: {
        Cookie: s.cookie,
        "Content-Type": "application/json",
        ...(origin ? { Origin: origin } : {}),
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const load = async (s: DashboardSession) => {
    const res = await fetch(url, { headers: { Cookie: s.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    return res.json();
  };

  it("gives the default Day and Night windows before any save", async () => {
    const user2 = await signIn(base, "SandboxUser2");
    expect(await load(user2)).toEqual({ windows: DAY_NIGHT_WINDOWS, saved: false });
  });

  it("saves windows typed in mmol/L, keeps them in mg/dL, and the page shows them", async () => {
    const rows = [
      r("Breakfast", "06:00", "10:00", "3.0", "3.9", "7.8"),
      r("Rest of day", "10:00", "22:00", "3.0", "3.9", "10.0"),
      r("Night", "22:00", "06:00", "3.0", "4.4", "10.0"),
    ];
    const body = requestFromRows(rows).body!;
    const res = await save(user1, { unit: "mmol/L", ...body });
    expect(res.status).toBe(200);
    const saved = await load(user1);
    expect(saved.saved).toBe(true);
    expect(saved.windows.map((w: { name: string }) => w.name)).toEqual(["Breakfast", "Rest of day", "Night"]);
    // As the nearest whole mg/dL: 7.8 × 18.0182 = 140.54 → 141; 4.4 × 18.0182 = 79.28 → 79;
    // 3.0 → 54.05 → 54 (not 54.05, which would count every 54 mg/dL reading as urgent low).
    expect(saved.windows[0]).toMatchObject({ urgentLowMgdl: 54, lowMgdl: 70, highMgdl: 141 });
    expect(saved.windows[2].lowMgdl).toBe(79);
    // SandboxUser1's data is in mg/dL, and so is the page: the bounds read back in whole mg/dL.
    const page = await (
      await fetch(`${base}/reports/statistics`, { headers: { Cookie: user1.cookie } })
    ).text();
    expect(page).toContain("Breakfast");
    expect(page).toContain("06:00–10:00 · 54 / 70 / 141 mg/dL");
    expect(page).not.toContain("You have not saved windows yet");
  });

  it("answers 400 with the service's message for windows the service would refuse, and keeps the saved ones", async () => {
    const before = await load(user1);
    const overlapping = requestFromRows([r("Day", "06:00", "23:00"), r("Night", "22:00", "06:00")]).body!;
    const res = await save(user1, { unit: "mg/dL", ...overlapping });
    expect(res.status).toBe(400);
    const answer = await res.json();
    expect(answer.message).toBe('targetRanges: time ranges "Day" and "Night" overlap');
    expect(answer.message).toBe(checkStatisticsRequest("v2", overlapping).message);
    expect(await load(user1)).toEqual(before);
  });

  it.each([
    ["no unit", { targetRanges: requestFromWindows(DAY_NIGHT_WINDOWS, "mg/dL").targetRanges }],
    [
      "bounds out of order",
      {
        unit: "mg/dL",
        targetRanges: [targetRangeV2("W", "00:00:00", "00:00:00", { urgentLow: 70, low: 54, high: 180 })],
      },
    ],
    ["no windows", { unit: "mg/dL", targetRanges: [] }],
    ["not JSON", "{targetRanges"],
    ["an empty body", ""],
  ])("answers 400 for %s", async (_what, body) => {
    const res = await save(user1, body);
    expect(res.status).toBe(400);
    const answer = await res.json();
    expect(answer.message).toBeTruthy();
    if (typeof body === "object") {
      const expected = parseSaveBody(body);
      expect(expected.ok).toBe(false);
      if (!expected.ok) expect(answer.message).toBe(expected.message);
    }
  });

  it("answers 400 for more windows than the dashboard keeps, though the service would take them", async () => {
    const hours = Array.from({ length: MAX_WINDOWS + 1 }, (_, i) => i);
    const body = {
      targetRanges: hours.map((h) =>
        targetRangeV2(
          `Hour ${h}`,
          `${String(h).padStart(2, "0")}:00:00`,
          h === MAX_WINDOWS ? "00:00:00" : `${String(h + 1).padStart(2, "0")}:00:00`,
          {
            urgentLow: 54,
            low: 70,
            high: 180,
          },
        ),
      ),
    };
    expect((await atService("v2", body)).status).toBe(200);
    const res = await save(user1, { unit: "mg/dL", ...body });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(`this dashboard keeps at most ${MAX_WINDOWS} windows`);
  });

  it("refuses a save from another site (403) and without a session (401)", async () => {
    const body = { unit: "mg/dL", ...requestFromWindows(DAY_NIGHT_WINDOWS, "mg/dL") };
    expect((await save(user1, body, "https://evil.example")).status).toBe(403);
    const anonymous = await fetch(url, {
      method: "POST",
      headers: { Origin: base, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(anonymous.status).toBe(401);
  });
});
