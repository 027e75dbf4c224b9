import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
// Types only (erased): drizzle-kit loads this file without the app's path aliases.
import type { TargetGroup } from "../../metrics/targets";
import { users } from "./auth";

/**
 * What a patient chose for their own view: the glucose unit (null: the unit of their data, as the
 * service sends it) and the target range drawn on the trace, kept in mg/dL whatever the unit shown
 * (shading only), and the consensus group whose goals judge their data (null: never chosen; then
 * their clinic's choice, else the standard goals: lib/preferences/target-group.ts).
 */
export const userPreferences = pgTable("user_preferences", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  unit: text("unit").$type<"mg/dL" | "mmol/L">(),
  targetLowMgdl: integer("target_low_mgdl").notNull().default(70),
  targetHighMgdl: integer("target_high_mgdl").notNull().default(180),
  targetGroup: text("target_group").$type<TargetGroup>(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
