CREATE TABLE "sync_state" (
	"connection_id" text PRIMARY KEY NOT NULL,
	"egvs_through" timestamp with time zone,
	"events_through" timestamp with time zone,
	"calibrations_through" timestamp with time zone,
	"backfill_done" boolean DEFAULT false NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"reconnect_token_version" integer,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "synced_calibrations" (
	"connection_id" text NOT NULL,
	"system_time" timestamp with time zone NOT NULL,
	"display_time" text NOT NULL,
	"value" double precision NOT NULL,
	"unit" text NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "synced_calibrations_connection_id_system_time_pk" PRIMARY KEY("connection_id","system_time")
);
--> statement-breakpoint
CREATE TABLE "synced_egvs" (
	"connection_id" text NOT NULL,
	"system_time" timestamp with time zone NOT NULL,
	"display_time" text NOT NULL,
	"value" double precision NOT NULL,
	"realtime_value" double precision NOT NULL,
	"smoothed_value" double precision,
	"unit" text NOT NULL,
	"rate_unit" text NOT NULL,
	"status" text,
	"trend" text,
	"trend_rate" double precision,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "synced_egvs_connection_id_system_time_pk" PRIMARY KEY("connection_id","system_time")
);
--> statement-breakpoint
CREATE TABLE "synced_events" (
	"connection_id" text NOT NULL,
	"event_id" text NOT NULL,
	"system_time" timestamp with time zone NOT NULL,
	"display_time" text NOT NULL,
	"event_type" text NOT NULL,
	"event_sub_type" text,
	"value" double precision,
	"unit" text,
	"event_status" text NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "synced_events_connection_id_event_id_pk" PRIMARY KEY("connection_id","event_id")
);
--> statement-breakpoint
ALTER TABLE "sync_state" ADD CONSTRAINT "sync_state_connection_id_cgm_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."cgm_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "synced_calibrations" ADD CONSTRAINT "synced_calibrations_connection_id_cgm_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."cgm_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "synced_egvs" ADD CONSTRAINT "synced_egvs_connection_id_cgm_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."cgm_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "synced_events" ADD CONSTRAINT "synced_events_connection_id_cgm_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."cgm_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_state_due_idx" ON "sync_state" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "synced_events_time_idx" ON "synced_events" USING btree ("connection_id","system_time");