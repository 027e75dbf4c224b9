CREATE TABLE "sandbox_event_deletions" (
	"client_id" text NOT NULL,
	"username" text NOT NULL,
	"event_id" text NOT NULL,
	"system_ms" bigint NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_event_deletions_client_id_username_event_id_pk" PRIMARY KEY("client_id","username","event_id")
);
--> statement-breakpoint
ALTER TABLE "sync_state" ADD COLUMN "egvs_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_state" ADD COLUMN "events_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_state" ADD COLUMN "calibrations_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_state" ADD COLUMN "data_range" jsonb;--> statement-breakpoint
ALTER TABLE "sync_state" ADD COLUMN "events_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox_event_deletions" ADD CONSTRAINT "sandbox_event_deletions_client_id_sandbox_apps_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."sandbox_apps"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_event_deletions_time_idx" ON "sandbox_event_deletions" USING btree ("client_id","username","system_ms");