-- The daily rollup gains the count of readings from 70 to 140 mg/dL inclusive, for the population
-- view's time in tight range (issue 14). New days are counted by lib/sync/daily-store.ts with the
-- bounds of lib/metrics/constants.ts (TIGHT_RANGE_MIN_MGDL, TIGHT_RANGE_MAX_MGDL); the days already
-- stored are counted here once, from the metric value each synced EGV carries (migration 0011), with
-- the same bounds written out.
ALTER TABLE "synced_egv_days" ADD COLUMN "tight_range" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "synced_egv_days" d SET "tight_range" = c."n"
  FROM (
    SELECT "connection_id", left("display_time", 10)::date AS "day", count(*)::int AS "n"
    FROM "synced_egvs"
    WHERE "metric_mgdl" >= 70 AND "metric_mgdl" <= 140
    GROUP BY 1, 2
  ) c
  WHERE d."connection_id" = c."connection_id" AND d."day" = c."day";--> statement-breakpoint
ALTER TABLE "synced_egv_days" ALTER COLUMN "tight_range" DROP DEFAULT;
