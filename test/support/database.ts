import pg from "pg";

/**
 * Empties a PostgreSQL database (its public schema and drizzle's migration log), so the app's
 * migrations run on it as on a new deployment. For test and benchmark databases only.
 */
export async function emptyDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      "drop schema if exists public cascade; create schema public; drop schema if exists drizzle cascade;",
    );
  } finally {
    await client.end();
  }
}
