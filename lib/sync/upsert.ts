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
 */
export function upsertRows(table: PgTable, key: readonly string[], rows: readonly object[]): SQL {
  const first = rows[0];
  if (!first) throw new Error("upsertRows needs at least one row.");
  const fields = Object.entries(getTableColumns(table)).filter(([name]) => name in first);
  const id = (name: string) => sql.identifier(name);
  const names = sql.join(
    fields.map(([, c]) => id(c.name)),
    sql`, `,
  );
  const arrays = sql.join(
    fields.map(([field, c]) => {
      const type = c.getSQLType();
      // An array column would need nested literals; the synced tables have none.
      if (type.endsWith("]")) throw new Error(`upsertRows: column ${c.name} is an array.`);
      const values = rows.map((row) => (row as Record<string, unknown>)[field]);
      return sql`${arrayLiteral(values)}::${sql.raw(type)}[]`;
    }),
    sql`, `,
  );
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
  return sql`insert into ${table} (${names})
    select * from unnest(${arrays})
    on conflict (${keyColumns}) do update set ${sql.join(updates, sql`, `)}`;
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
