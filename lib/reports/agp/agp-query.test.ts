import { describe, expect, it } from "vitest";
import { agpQueryParams, parseAgpQuery } from "./agp-query";

const parse = (q: Record<string, string>) => parseAgpQuery((name) => q[name]);

describe("the AGP page's query", () => {
  it("defaults to 14 days and the view's own target group (none asked)", () => {
    expect(parse({})).toEqual({
      ok: true,
      value: { period: { kind: "days", days: 14 }, population: null },
    });
    expect(parse({ targets: "standard" })).toMatchObject({ value: { population: "standard" } });
  });

  it("reads the date form's days as the patient's days (receiver's clock), and writes them back", () => {
    const r = parse({ startDay: "2026-11-01", endDay: "2026-11-14", targets: "pregnancy" });
    expect(r.ok && r.value.period).toEqual({
      kind: "patientDays",
      patientDays: { firstDay: "2026-11-01", lastDay: "2026-11-14" },
    });
    expect(r.ok && agpQueryParams(r.value)).toEqual({
      targets: "pregnancy",
      startDay: "2026-11-01",
      endDay: "2026-11-14",
    });
  });

  it("refuses an unknown population, half a date form, and periods the reports refuse", () => {
    expect(parse({ targets: "children" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("targets"),
    });
    expect(parse({ startDay: "2026-11-01" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("both"),
    });
    expect(parse({ startDay: "2026-11-14", endDay: "2026-11-01" })).toMatchObject({
      ok: false,
      message: "the first day must not be after the last day",
    });
    expect(parse({ startDay: "2026-11-14", endDay: "2026-11-14" }).ok).toBe(true);
    expect(parse({ startDay: "2026-01-01", endDay: "2026-11-01" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("at most 90 days"),
    });
    expect(parse({ days: "120" })).toMatchObject({ ok: false });
  });

  it("round-trips: the params it writes parse back to the same query", () => {
    const r = parse({ days: "30", targets: "older" });
    expect(r.ok && parse(agpQueryParams(r.value))).toEqual(r);
    const own = parse({ days: "30" });
    expect(own.ok && agpQueryParams(own.value)).toEqual({ days: "30" });
    expect(own.ok && parse(agpQueryParams(own.value))).toEqual(own);
  });
});
