import { PgDialect, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { arrayLiteral, epochLiteral, insertRows, upsertRows } from "./upsert";

describe("arrayLiteral", () => {
  it("quotes text and escapes only quotes and backslashes", () => {
    expect(arrayLiteral(["a", 'say "hi"', "back\\slash", "a,b {c}", "NULL", ""])).toBe(
      '{"a","say \\"hi\\"","back\\\\slash","a,b {c}","NULL",""}',
    );
  });

  it("writes null and undefined as NULL, numbers and dates bare, objects as quoted JSON", () => {
    expect(
      arrayLiteral([null, undefined, 5.6, -0.25, 1e21, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), { a: '"' }]),
    ).toBe('{NULL,NULL,5.6,-0.25,1e+21,2026-01-02T03:04:05.000Z,"{\\"a\\":\\"\\\\\\"\\"}"}');
  });

  it("is an empty literal for no values", () => {
    expect(arrayLiteral([])).toBe("{}");
  });
});

describe("epochLiteral", () => {
  it("writes dates as epoch milliseconds and null as NULL", () => {
    expect(epochLiteral([new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), null, undefined, new Date(-1)])).toBe(
      "{1767323045678,NULL,NULL,-1}",
    );
  });

  it("refuses anything but a date", () => {
    expect(() => epochLiteral(["2026-01-02T03:04:05Z"])).toThrow(/not a Date/);
  });
});

describe("the statements of upsertRows and insertRows", () => {
  const t = pgTable("t", {
    owner: text("owner").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    note: text("note"),
    syncedAt: timestamp("synced_at", { withTimezone: true }).notNull().defaultNow(),
  });
  const dialect = new PgDialect();
  const rows = [
    { owner: "c1", at: new Date(1_000), note: "a" },
    { owner: "c1", at: new Date(2_500), note: null },
  ];

  it("send a column the same in every row once, timestamps as epoch milliseconds, the rest as arrays", () => {
    const q = dialect.sqlToQuery(upsertRows(t, ["owner", "at"], rows));
    expect(q.sql.replace(/\s+/g, " ")).toBe(
      'insert into "t" ("owner", "at", "note") select $1::text, to_timestamp(u.c1 / 1000), u.c2 ' +
        "from unnest($2::float8[], $3::text[]) as u(c1, c2) " +
        'on conflict ("owner", "at") do update set "note" = excluded."note", "synced_at" = now()',
    );
    expect(q.params).toEqual(["c1", "{1000,2500}", '{"a",NULL}']);
  });

  it("insert rows known to be new with no ON CONFLICT clause", () => {
    const q = dialect.sqlToQuery(insertRows(t, rows));
    expect(q.sql).not.toMatch(/on conflict/);
    expect(q.sql).toMatch(/^insert into "t" \("owner", "at", "note"\) select /);
  });

  it("with every column the same in every row (one row), select its values once per row", () => {
    const q = dialect.sqlToQuery(insertRows(t, [rows[0] as object]));
    expect(q.sql).toBe(
      'insert into "t" ("owner", "at", "note") select $1::text, $2::timestamp with time zone, $3::text from generate_series(1, $4::int)',
    );
    expect(q.params).toEqual(["c1", "1970-01-01T00:00:01.000Z", "a", 1]);
  });
});
