CREATE TABLE "synced_egv_days" (
	"connection_id" text NOT NULL,
	"day" date NOT NULL,
	"n" integer NOT NULL,
	"very_low" integer NOT NULL,
	"low" integer NOT NULL,
	"in_range" integer NOT NULL,
	"high" integer NOT NULL,
	"very_high" integer NOT NULL,
	"sum" double precision NOT NULL,
	"sum_of_squares" double precision NOT NULL,
	"last_system_time" timestamp with time zone NOT NULL,
	"last_display_time" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "synced_egv_days_connection_id_day_pk" PRIMARY KEY("connection_id","day")
);
--> statement-breakpoint
CREATE TABLE "synced_statistics" (
	"connection_id" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL,
	"hypoglycemia_risk" text,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "synced_egv_days" ADD CONSTRAINT "synced_egv_days_connection_id_cgm_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."cgm_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "synced_statistics" ADD CONSTRAINT "synced_statistics_connection_id_cgm_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."cgm_connections"("id") ON DELETE cascade ON UPDATE no action;