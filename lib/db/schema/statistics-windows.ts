import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

/**
 * A patient's named time-of-day windows for statistics by time of day (issue 5): the whole list in
 * one row, in the patient's order, replaced at every save. Bounds are kept in mg/dL whatever unit
 * the patient typed them in; the list was checked with the service's own statistics rules before
 * it was stored (lib/reports/statistics-by-window/windows.ts).
 */
export interface StoredStatisticsWindow {
  name: string;
  startTime: string;
  endTime: string;
  urgentLowMgdl: number;
  lowMgdl: number;
  highMgdl: number;
}

export const statisticsWindows = pgTable("statistics_windows", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  windows: jsonb("windows").$type<StoredStatisticsWindow[]>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
