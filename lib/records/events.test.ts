import { describe, expect, it } from "vitest";
import type { CgmEvent } from "@/lib/cgm";
import {
  countByType,
  deletedCount,
  eventRow,
  eventSubTypeLabel,
  eventTypeLabel,
  eventValueText,
  filterEvents,
  offeredEventTypes,
  parseDeletedToggle,
  parseEventTypeFilter,
} from "./events";

function ev(
  eventId: string,
  systemTime: string,
  eventType: CgmEvent["eventType"],
  extra: Partial<CgmEvent> = {},
): CgmEvent {
  return {
    systemTime,
    displayTime: systemTime,
    eventType,
    eventSubType: null,
    value: null,
    unit: null,
    eventId,
    eventStatus: "created",
    ...extra,
  };
}

const EVENTS: CgmEvent[] = [
  ev("a", "2026-03-01T07:00:00", "carbs", { value: 45, unit: "grams" }),
  ev("b", "2026-03-01T06:55:00", "insulin", { value: 4.5, unit: "units" }),
  ev("c", "2026-03-01T06:53:00", "insulin", { value: 5.5, unit: "units", eventStatus: "deleted" }),
  ev("d", "2026-03-02T18:00:00", "exercise", {
    displayTime: "2026-03-02T13:00:00",
    eventSubType: "medium",
    value: 30,
    unit: "minutes",
  }),
  ev("e", "2026-03-01T07:00:00", "health", { eventSubType: "stress" }),
  // Later by the system clock, earlier by the receiver's (the clock was set back on a trip west).
  ev("f", "2026-03-03T01:00:00", "carbs", { displayTime: "2026-03-02T10:00:00", value: 20, unit: "grams" }),
];

describe("query parsing", () => {
  it("reads the type filter, anything unknown being all", () => {
    expect(parseEventTypeFilter("insulin")).toBe("insulin");
    expect(parseEventTypeFilter("carbs")).toBe("carbs");
    expect(parseEventTypeFilter(["health", "carbs"])).toBe("health");
    expect(parseEventTypeFilter("all")).toBe("all");
    expect(parseEventTypeFilter("Insulin")).toBe("all");
    expect(parseEventTypeFilter("bolus")).toBe("all");
    expect(parseEventTypeFilter(undefined)).toBe("all");
  });

  it("hides deleted events unless asked to show them", () => {
    expect(parseDeletedToggle("show")).toBe("show");
    expect(parseDeletedToggle("hide")).toBe("hide");
    expect(parseDeletedToggle("yes")).toBe("hide");
    expect(parseDeletedToggle(undefined)).toBe("hide");
  });
});

describe("filterEvents", () => {
  const ids = (list: CgmEvent[]) => list.map((e) => e.eventId);

  it("lists newest first by system time, ties by id, deleted hidden", () => {
    expect(ids(filterEvents(EVENTS, { type: "all", deleted: "hide" }))).toEqual(["f", "d", "a", "e", "b"]);
  });

  it("filters by type, and shows deleted events when asked", () => {
    expect(ids(filterEvents(EVENTS, { type: "insulin", deleted: "hide" }))).toEqual(["b"]);
    expect(ids(filterEvents(EVENTS, { type: "insulin", deleted: "show" }))).toEqual(["b", "c"]);
    expect(ids(filterEvents(EVENTS, { type: "carbs", deleted: "show" }))).toEqual(["f", "a"]);
    expect(ids(filterEvents(EVENTS, { type: "all", deleted: "show" }))).toEqual([
      "f",
      "d",
      "a",
      "e",
      "b",
      "c",
    ]);
  });

  it("leaves its input alone", () => {
    const before = ids(EVENTS);
    filterEvents(EVENTS, { type: "all", deleted: "show" });
    expect(ids(EVENTS)).toEqual(before);
  });
});

describe("counts", () => {
  it("counts per type with and without deleted events", () => {
    const v3 = { bloodGlucose: 0, notes: 0, unknown: 0 };
    expect(countByType(EVENTS, "hide")).toEqual({
      all: 5,
      carbs: 2,
      insulin: 1,
      exercise: 1,
      health: 1,
      ...v3,
    });
    expect(countByType(EVENTS, "show")).toEqual({
      all: 6,
      carbs: 2,
      insulin: 2,
      exercise: 1,
      health: 1,
      ...v3,
    });
    expect(countByType([], "show")).toEqual({ all: 0, carbs: 0, insulin: 0, exercise: 0, health: 0, ...v3 });
  });

  it("offers v2's four types always, API v3's others when there are some or when asked for", () => {
    const v2Types = ["carbs", "insulin", "exercise", "health"];
    expect(offeredEventTypes(countByType(EVENTS, "show"), "all")).toEqual(v2Types);
    const withV3 = [
      ...EVENTS,
      ev("n", "2026-03-01T08:00:00", "notes", { text: "Pizza night" }),
      ev("g", "2026-03-01T08:05:00", "bloodGlucose", { value: 112, unit: "mg/dL" }),
    ];
    expect(offeredEventTypes(countByType(withV3, "hide"), "all")).toEqual([
      ...v2Types,
      "bloodGlucose",
      "notes",
    ]);
    expect(offeredEventTypes(countByType(EVENTS, "hide"), "unknown")).toEqual([...v2Types, "unknown"]);
    expect(parseEventTypeFilter("notes")).toBe("notes");
  });

  it("reads API v3's types and amounts: a meter reading with its unit, a note without an amount", () => {
    expect(eventTypeLabel("bloodGlucose")).toBe("Blood glucose");
    expect(eventTypeLabel("notes")).toBe("Note");
    expect(eventTypeLabel("unknown")).toBe("Other");
    expect(eventSubTypeLabel("fastActing")).toBe("Fast-acting");
    expect(eventValueText({ value: 112, unit: "mg/dL" })).toBe("112 mg/dL");
    expect(eventValueText({ value: 5.4, unit: "mmol/L" })).toBe("5.4 mmol/L");
    expect(eventValueText({ value: 3, unit: "unknown" })).toBe("3");
    expect(eventValueText({ value: null, unit: null })).toBeNull();
  });

  it("shows a meter reading in the patient's display unit, as a number even outside the CGM's range", () => {
    expect(eventValueText({ value: 112, unit: "mg/dL" }, "mmol/L")).toBe("6.2 mmol/L");
    expect(eventValueText({ value: 5.4, unit: "mmol/L" }, "mg/dL")).toBe("97 mg/dL");
    expect(eventValueText({ value: 180, unit: "mg/dL" }, "mmol/L")).toBe("10.0 mmol/L");
    expect(eventValueText({ value: 112, unit: "mg/dL" }, "mg/dL")).toBe("112 mg/dL");
    expect(eventValueText({ value: 35, unit: "mg/dL" }, "mg/dL")).toBe("35 mg/dL");
    // Other events keep their units.
    expect(eventValueText({ value: 45, unit: "grams" }, "mmol/L")).toBe("45 grams");
  });

  it("counts the deleted events of the chosen type", () => {
    expect(deletedCount(EVENTS, "all")).toBe(1);
    expect(deletedCount(EVENTS, "insulin")).toBe(1);
    expect(deletedCount(EVENTS, "carbs")).toBe(0);
  });
});

describe("labels and values", () => {
  it("names types and subtypes", () => {
    expect(eventTypeLabel("carbs")).toBe("Carbs");
    expect(eventTypeLabel("insulin")).toBe("Insulin");
    expect(eventTypeLabel("exercise")).toBe("Exercise");
    expect(eventTypeLabel("health")).toBe("Health");
    expect(eventSubTypeLabel("highSymptoms")).toBe("High symptoms");
    expect(eventSubTypeLabel("lowSymptoms")).toBe("Low symptoms");
    expect(eventSubTypeLabel("heavy")).toBe("Heavy");
    expect(eventSubTypeLabel(null)).toBeNull();
  });

  it("writes the value with its unit", () => {
    expect(eventValueText({ value: 45, unit: "grams" })).toBe("45 grams");
    expect(eventValueText({ value: 1, unit: "grams" })).toBe("1 gram");
    expect(eventValueText({ value: 4.35, unit: "units" })).toBe("4.35 units");
    expect(eventValueText({ value: 1, unit: "units" })).toBe("1 unit");
    expect(eventValueText({ value: 0.5, unit: "units" })).toBe("0.5 units");
    expect(eventValueText({ value: 30, unit: "minutes" })).toBe("30 minutes");
  });

  it("has no value for health events, and a bare number without a unit", () => {
    expect(eventValueText({ value: null, unit: null })).toBeNull();
    expect(eventValueText({ value: null, unit: "grams" })).toBeNull();
    expect(eventValueText({ value: 2, unit: null })).toBe("2");
  });
});

describe("eventRow", () => {
  it("reads an event as every list shows it: a note's text as its detail, a meter reading in the unit asked", () => {
    expect(eventRow(ev("n", "2026-03-01T07:00:00", "notes", { text: "ran late" }), null)).toEqual({
      key: "n",
      displayTime: "2026-03-01T07:00:00",
      type: eventTypeLabel("notes"),
      detail: "ran late",
      amount: null,
    });
    const meter = ev("m", "2026-03-01T07:00:00", "bloodGlucose", { value: 108, unit: "mg/dL" });
    expect(eventRow(meter, "mmol/L").amount).toBe(eventValueText(meter, "mmol/L"));
    expect(eventRow(meter, null).amount).toBe(eventValueText(meter));
  });
});
