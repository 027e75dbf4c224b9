import "server-only";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * An upsert of many rows sent as one array parameter per column and expanded by unnest. Why not
 * drizzle's insert(…).values(rows): it binds a parameter per field, and building that statement
 * costs more than the database takes to write the rows (about 0.3 s of JavaScript per 1,000 EGVs
 * on the benchmark machine, most of a year's backfill). Why not one JSON parameter expanded by
 * jsonb_to_recordset (this module's first form): the database then parses every key name of every
 * row, and a year's EGVs took 0.5–1 s longer to write on PGlite than as column arrays. The number
 * of parameters is the number of columns whatever the batch size, far from PostgreSQL's limit.
 * Rows are keyed by the table's TypeScript field names. Every column but the key takes the
 * incoming value, and `syncedAt` (when present in the table) becomes now().
 *
 * Most of such a statement's time is the database parsing the array literals, so each column is
 * sent in the form cheapest to parse (`columnParameter`).
 */
export function upsertRows(table: PgTable, key: readonly string[], rows: readonly object[]): SQL {
  const { fields, insert } = insertSelect(table, rows);
  const id = (name: string) => sql.identifier(name);
  const keyColumns = sql.join(
    fields.filter(([field]) => key.includes(field)).map(([, c]) => id(c.name)),
    sql`, `,
  );
  const syncedAt = getTableColumns(table).syncedAt;
  const updates = [
    ...fields
      .filter(([field]) => !key.includes(field))
      .map(([, c]) => sql`${id(c.name)} = excluded.${id(c.name)}`),
    ...(syncedAt ? [sql`${id(syncedAt.name)} = now()`] : []),
  ];
  return sql`${insert}
    on conflict (${keyColumns}) do update set ${sql.join(updates, sql`, `)}`;
}

/**
 * The same rows inserted with no ON CONFLICT clause, for rows known to be new: PostgreSQL then
 * skips the speculative insertion an upsert makes for every row (a probe of the key's index
 * first, the insertion confirmed after), about a quarter of a year of EGVs' writing time on
 * PGlite. A row that is not new after all fails the statement on the primary key: nothing is
 * ever stored twice.
 */
export function insertRows(table: PgTable, rows: readonly object[]): SQL {
  return insertSelect(table, rows).insert;
}

function insertSelect(table: PgTable, rows: readonly object[]) {
  const first = rows[0];
  if (!first) throw new Error("upsertRows needs at least one row.");
  const fields = Object.entries(getTableColumns(table)).filter(([name]) => name in first);
  const names = sql.join(
    fields.map(([, c]) => sql.identifier(c.name)),
    sql`, `,
  );
  const sent = fields.map(([field, c], i) => {
    const type = c.getSQLType();
    // An array column would need nested literals; the synced tables have none.
    if (type.endsWith("]")) throw new Error(`upsertRows: column ${c.name} is an array.`);
    return columnParameter(
      type,
      rows.map((row) => (row as Record<string, unknown>)[field]),
      `c${i}`,
    );
  });
  const values = sql.join(
    sent.map((s) => s.value),
    sql`, `,
  );
  const arrays = sent.flatMap((s) => (s.array ? [{ array: s.array, alias: sql.raw(s.alias) }] : []));
  // Every column the same in every row (one row, say): no array to unnest, the values once per row.
  const from =
    arrays.length > 0
      ? sql`unnest(${sql.join(
          arrays.map((a) => a.array),
          sql`, `,
        )}) as u(${sql.join(
          arrays.map((a) => a.alias),
          sql`, `,
        )})`
      : sql`generate_series(1, ${rows.length}::int)`;
  return { fields, insert: sql`insert into ${table} (${names}) select ${values} from ${from}` };
}

/**
 * How one column's values travel: `value` is the expression of the SELECT that yields the
 * column, reading the unnest alias `alias` when the column goes as the array `array`. A column
 * with one value in every row (a batch's connection, an EGV's unit) goes as a single parameter,
 * parsed once. Timestamps go as epoch milliseconds (float8, exact to the microsecond for any
 * millisecond of this era) turned into timestamptz by to_timestamp: PostgreSQL's timestamptz
 * input routine took about five times as long per element as the float8 one and was most of a
 * year of EGVs' writing time on PGlite. Everything else goes as an array literal of its type.
 */
export function columnParameter(
  type: string,
  values: readonly unknown[],
  alias: string,
): { value: SQL; array?: SQL; alias: string } {
  const v0 = values[0];
  const same = values.every((v) => v === v0 || (v instanceof Date && v0 instanceof Date && +v === +v0));
  if (same && v0 !== undefined) {
    const one =
      v0 instanceof Date ? v0.toISOString() : typeof v0 === "object" && v0 !== null ? JSON.stringify(v0) : v0;
    return { value: sql`${one}::${sql.raw(type)}`, alias };
  }
  const ref = sql.raw(`u.${alias}`);
  if (type === "timestamp with time zone") {
    return { value: sql`to_timestamp(${ref} / 1000)`, array: sql`${epochLiteral(values)}::float8[]`, alias };
  }
  return { value: ref, array: sql`${arrayLiteral(values)}::${sql.raw(type)}[]`, alias };
}

/** Dates (or null) as a float8 array literal of epoch milliseconds. */
export function epochLiteral(values: readonly unknown[]): string {
  return `{${values
    .map((v) => {
      if (v === null || v === undefined) return "NULL";
      if (v instanceof Date) return String(v.getTime());
      throw new Error(`epochLiteral: not a Date: ${String(v)}`);
    })
    .join(",")}}`;
}

/**
 * A one-dimensional PostgreSQL array literal ("{…}") of scalar values: text quoted with `"` and
 * `\` escaped (so commas, braces, spaces and the text "NULL" stay text), null as the bare NULL,
 * numbers as JavaScript prints them, dates as ISO 8601 in UTC, objects as JSON (for json and
 * jsonb columns).
 */
export function arrayLiteral(values: readonly unknown[]): string {
  return `{${values.map(arrayElement).join(",")}}`;
}

function arrayElement(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  // Numbers and ISO dates hold no character the literal treats specially, so they go bare.
  if (typeof v === "number") return String(v);
  if (v instanceof Date) return v.toISOString();
  const text = typeof v === "object" ? JSON.stringify(v) : String(v);
  // The escape is the slow part for a year of rows, and almost no value needs it.
  const escaped = text.includes('"') || text.includes("\\") ? text.replace(/["\\]/g, "\\$&") : text;
  return `"${escaped}"`;
}
