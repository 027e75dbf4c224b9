-- mmol/L readings now take part in metrics as the nearest whole mg/dL (lib/cgm/values.ts,
-- metricValueMgdl), so 10.0 mmol/L is 180 mg/dL (in range) instead of 180.18 (high). The metric
-- value and consensus range of a synced EGV are computed in TypeScript when it is written, so, as
-- migration 0011 did, the mmol/L connections' synced EGVs and daily sums are dropped and their next
-- sync reads the EGVs again; until then their pages ask the service. mg/dL data is unchanged.
UPDATE "sync_state" SET "egvs_through" = NULL, "egvs_from" = NULL, "backfill_done" = false
  WHERE "connection_id" IN (SELECT DISTINCT "connection_id" FROM "synced_egvs" WHERE "unit" = 'mmol/L');--> statement-breakpoint
DELETE FROM "synced_egv_days"
  WHERE "connection_id" IN (SELECT DISTINCT "connection_id" FROM "synced_egvs" WHERE "unit" = 'mmol/L');--> statement-breakpoint
DELETE FROM "synced_egvs"
  WHERE "connection_id" IN (SELECT DISTINCT "connection_id" FROM "synced_egvs" WHERE "unit" = 'mmol/L');
