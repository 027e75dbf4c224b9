-- Target group per patient (issue 14): the patient's own choice (user_preferences) and their clinic's
-- (clinic_patients), null while not chosen.
ALTER TABLE "clinic_patients" ADD COLUMN "target_group" text;--> statement-breakpoint
ALTER TABLE "clinic_patients" ADD COLUMN "target_group_set_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_preferences" ADD COLUMN "target_group" text;--> statement-breakpoint
-- The daily sums gain the counts the pregnancy group's bands need (below 63 and above 140 mg/dL;
-- below 54 is counted already). They are filled here from the stored readings, whose metric value
-- (whole mg/dL, sentinels 39 and 401) each row already carries, rather than left to the next sync:
-- a sync recounts only the days it writes, so older days would stay at 0 for up to 28 days and a
-- pregnant patient would be judged on counts that are not there. One pass over synced_egvs, the same
-- comparisons as lib/sync/daily-store.ts (the edges of PREGNANCY_RANGE_MGDL, lib/metrics/constants.ts).
ALTER TABLE "synced_egv_days" ADD COLUMN "below_63" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "synced_egv_days" ADD COLUMN "above_140" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "synced_egv_days" d SET "below_63" = c."below_63", "above_140" = c."above_140"
  FROM (
    SELECT "connection_id", left("display_time", 10)::date AS "day",
      count(*) FILTER (WHERE "metric_mgdl" < 63)::int AS "below_63",
      count(*) FILTER (WHERE "metric_mgdl" > 140)::int AS "above_140"
    FROM "synced_egvs"
    GROUP BY "connection_id", left("display_time", 10)
  ) c
  WHERE d."connection_id" = c."connection_id" AND d."day" = c."day";
