import { describe, expect, it } from "vitest";
import type { CgmEvent } from "@/lib/cgm";
import { eventsModel, parseEventsQuery } from "./events-model";

function ev(
  eventId: string,
  systemTime: string,
  eventType: CgmEvent["eventType"],
  deleted = false,
): CgmEvent {
  return {
    systemTime,
    displayTime: systemTime,
    eventType,
    eventSubType: null,
    value: null,
    unit: null,
    eventId,
    eventStatus: deleted ? "deleted" : "created",
  };
}

const DATA = {
  events: [
    ev("a", "2026-03-01T07:00:00", "carbs"),
    ev("b", "2026-03-01T06:55:00", "notes"),
    ev("c", "2026-03-01T06:53:00", "notes", true),
    ev("d", "2026-03-02T18:00:00", "carbs"),
  ],
  patientDays: { firstDay: "2026-02-24", lastDay: "2026-03-02" },
  latestDisplayTime: "2026-03-02T18:00:00",
};

describe("parseEventsQuery", () => {
  it("reads the three choices, and takes the defaults for anything else", () => {
    expect(parseEventsQuery({ days: "30", type: "notes", deleted: "show" })).toEqual({
      days: 30,
      type: "notes",
      deleted: "show",
    });
    expect(parseEventsQuery({ days: "31", type: "x" })).toEqual({ days: 14, type: "all", deleted: "hide" });
  });
});

describe("eventsModel", () => {
  it("lists newest first without deleted entries, and says how many are hidden", () => {
    const m = eventsModel(DATA, parseEventsQuery({}), null);
    expect(m.listed.map((e) => e.eventId)).toEqual(["d", "a", "b"]);
    expect(m.caption).toBe("3 events, newest first");
    expect(m.hidden).toBe(1);
    expect(m.deletedHref).toBe("/dashboard/events?deleted=show");
  });

  it("names one type in the caption, in words that agree with the number", () => {
    const one = eventsModel(DATA, parseEventsQuery({ type: "notes" }), null);
    expect(one.caption).toBe("1 note event, newest first");
    expect(one.what).toBe("note events");
    const shown = eventsModel(DATA, parseEventsQuery({ type: "notes", deleted: "show" }), null);
    expect(shown.caption).toBe("2 note events, newest first, deleted entries included");
    expect(shown.hidden).toBe(0);
    expect(shown.deletedHref).toBe("/dashboard/events?type=notes");
  });

  it("keeps the other choices in every link, and counts what each type would list", () => {
    const m = eventsModel(DATA, parseEventsQuery({ days: "30", type: "carbs" }), "mmol/L");
    expect(m.periodChoices.map((c) => [c.href, c.current])).toEqual([
      ["/dashboard/events?days=7&type=carbs", false],
      ["/dashboard/events?type=carbs", false],
      ["/dashboard/events?days=30&type=carbs", true],
      ["/dashboard/events?days=90&type=carbs", false],
    ]);
    const byLabel = Object.fromEntries(m.typeChoices.map((c) => [c.label, c]));
    expect(byLabel.All).toEqual({
      href: "/dashboard/events?days=30",
      label: "All",
      current: false,
      count: 3,
    });
    expect(byLabel.Carbs?.current).toBe(true);
    expect(byLabel.Carbs?.count).toBe(2);
    expect(m.glucoseUnit).toBe("mmol/L");
  });
});
