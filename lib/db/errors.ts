/** PostgreSQL's unique_violation, as node-postgres and PGlite report it (drizzle may wrap it). */
export function isUniqueViolation(e: unknown): boolean {
  for (let x = e; x && typeof x === "object"; x = (x as { cause?: unknown }).cause) {
    if ((x as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
