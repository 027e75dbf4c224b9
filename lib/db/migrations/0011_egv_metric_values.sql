-- The synced EGVs gain their metric value and consensus range, computed in TypeScript when a row is
-- written (lib/sync/rows.ts). Rows stored before cannot be given them here without repeating those
-- rules in SQL, and the synced tables are a copy of the service's data: so the stored EGVs and
-- their daily sums are dropped, and each connection's next sync reads its EGVs again (a backfill).
-- Until then the dashboard reads the service, as for any connection not yet synced.
DELETE FROM "synced_egv_days";--> statement-breakpoint
DELETE FROM "synced_egvs";--> statement-breakpoint
UPDATE "sync_state" SET "egvs_through" = NULL, "egvs_from" = NULL, "backfill_done" = false;--> statement-breakpoint
ALTER TABLE "synced_egvs" ADD COLUMN "metric_mgdl" double precision NOT NULL;--> statement-breakpoint
ALTER TABLE "synced_egvs" ADD COLUMN "consensus_range" text NOT NULL;
