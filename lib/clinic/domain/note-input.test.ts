import { describe, expect, it } from "vitest";
import {
  instantOf,
  parseLocalDateTime,
  parseNoteFields,
  parseTagName,
  reviewFieldsSchema,
  wallOf,
} from "./note-input";

describe("note fields", () => {
  it("reads a range typed on the receiver's clock, and stores the instant on that clock", () => {
    const parsed = parseNoteFields({
      text: " ill ",
      start: "2026-03-29T01:30",
      end: "2026-03-29T04:00",
      shared: "on",
    });
    expect(parsed).toEqual({
      ok: true,
      note: {
        text: "ill",
        shared: true,
        range: { startWall: Date.UTC(2026, 2, 29, 1, 30), endWall: Date.UTC(2026, 2, 29, 4) },
      },
    });
    // A clock one hour ahead of UTC: 01:30 there is 00:30Z, and shown again as 01:30.
    const at = instantOf(Date.UTC(2026, 2, 29, 1, 30), 60);
    expect(at.toISOString()).toBe("2026-03-29T00:30:00.000Z");
    expect(wallOf(at, 60)).toBe(Date.UTC(2026, 2, 29, 1, 30));
  });

  it("refuses what is not a sane note, in words", () => {
    expect(parseNoteFields({ text: "" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("empty"),
    });
    expect(parseNoteFields({ text: "a", end: "2026-01-01T00:00" })).toMatchObject({ ok: false });
    expect(parseNoteFields({ text: "a", start: "2026-01-02T00:00", end: "2026-01-01T00:00" })).toMatchObject({
      ok: false,
      message: "The range must end after it starts.",
    });
    expect(parseNoteFields({ text: "a", start: "2026-01-01T24:00", end: "2026-01-02T00:00" })).toMatchObject({
      ok: false,
    });
    expect(parseLocalDateTime("2026-02-29T08:00")).toBeNull();
    expect(parseLocalDateTime("2028-02-29T08:00:30")).toBe(Date.UTC(2028, 1, 29, 8, 0, 30));
    expect(parseNoteFields({ text: "a", start: "2099-12-31T00:00", end: "2100-01-01T00:00" })).toMatchObject({
      ok: false,
    });
    expect(parseNoteFields({ text: "a", start: "2026-01-01T00:00", end: "2026-04-01T00:01" })).toMatchObject({
      ok: false,
    });
    expect(parseNoteFields({ text: "a", start: "2026-01-01T00:00", end: "2026-04-01T00:00" })).toMatchObject({
      ok: true,
    });
  });

  it("checks a review's period and a tag's name", () => {
    expect(reviewFieldsSchema.safeParse({ periodStart: "2026-01-01", periodEnd: "2026-01-14" }).success).toBe(
      true,
    );
    expect(reviewFieldsSchema.safeParse({ periodStart: "2026-01-14", periodEnd: "2026-01-01" }).success).toBe(
      false,
    );
    expect(reviewFieldsSchema.safeParse({ periodStart: "2025-01-01", periodEnd: "2026-01-14" }).success).toBe(
      false,
    );
    expect(reviewFieldsSchema.safeParse({ periodStart: "2026-1-1", periodEnd: "2026-01-14" }).success).toBe(
      false,
    );
    expect(parseTagName("  Insulin   pump ")).toEqual({ ok: true, name: "Insulin pump" });
    expect(parseTagName(" ")).toMatchObject({ ok: false });
    expect(parseTagName("x".repeat(41))).toMatchObject({ ok: false });
  });
});
