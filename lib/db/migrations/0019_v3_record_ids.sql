ALTER TABLE "sync_state" ADD COLUMN "api_version" text;--> statement-breakpoint
ALTER TABLE "synced_calibrations" ADD COLUMN "record_id" text;--> statement-breakpoint
ALTER TABLE "synced_egvs" ADD COLUMN "record_id" text;--> statement-breakpoint
ALTER TABLE "synced_events" ADD COLUMN "text" text;