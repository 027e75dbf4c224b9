CREATE TABLE "audit_events" (
	"id" text PRIMARY KEY NOT NULL,
	"clinic_id" text NOT NULL,
	"actor_user_id" text,
	"actor_name" text,
	"clinic_patient_id" text,
	"patient_name" text,
	"action" text NOT NULL,
	"detail" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clinic_patients" (
	"id" text PRIMARY KEY NOT NULL,
	"clinic_id" text NOT NULL,
	"name" text NOT NULL,
	"birth_date" text,
	"patient_user_id" text,
	"connection_id" text,
	"invite_token_hash" text,
	"invite_expires_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clinic_patients_invite_token_hash_unique" UNIQUE("invite_token_hash")
);
--> statement-breakpoint
CREATE TABLE "clinic_triage_settings" (
	"clinic_id" text PRIMARY KEY NOT NULL,
	"very_low_percent" double precision NOT NULL,
	"low_percent" double precision NOT NULL,
	"very_high_percent" double precision NOT NULL,
	"high_percent" double precision NOT NULL,
	"in_range_below_percent" double precision NOT NULL,
	"in_range_drop_points" double precision NOT NULL,
	"sensor_below_percent" double precision NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_patients" ADD CONSTRAINT "clinic_patients_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_patients" ADD CONSTRAINT "clinic_patients_patient_user_id_users_id_fk" FOREIGN KEY ("patient_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_patients" ADD CONSTRAINT "clinic_patients_connection_id_cgm_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."cgm_connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_patients" ADD CONSTRAINT "clinic_patients_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_triage_settings" ADD CONSTRAINT "clinic_triage_settings_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_triage_settings" ADD CONSTRAINT "clinic_triage_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_clinic_at_idx" ON "audit_events" USING btree ("clinic_id","at");--> statement-breakpoint
CREATE INDEX "clinic_patients_clinic_idx" ON "clinic_patients" USING btree ("clinic_id");--> statement-breakpoint
CREATE INDEX "clinic_patients_user_idx" ON "clinic_patients" USING btree ("patient_user_id");--> statement-breakpoint
CREATE INDEX "clinic_patients_connection_idx" ON "clinic_patients" USING btree ("connection_id");