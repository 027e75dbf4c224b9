CREATE TABLE "clinic_day_items" (
	"id" text PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"clinic_id" text NOT NULL,
	"clinic_patient_id" text,
	"patient_name" text NOT NULL,
	"birth_date" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"leased_by" text,
	"lease_until" timestamp with time zone,
	"error" text,
	"period" text,
	"pdf" "bytea",
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "clinic_day_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"clinic_id" text NOT NULL,
	"created_by" text,
	"selection" text NOT NULL,
	"days" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clinic_day_items" ADD CONSTRAINT "clinic_day_items_job_id_clinic_day_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."clinic_day_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_day_items" ADD CONSTRAINT "clinic_day_items_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_day_items" ADD CONSTRAINT "clinic_day_items_clinic_patient_id_clinic_patients_id_fk" FOREIGN KEY ("clinic_patient_id") REFERENCES "public"."clinic_patients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_day_jobs" ADD CONSTRAINT "clinic_day_jobs_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_day_jobs" ADD CONSTRAINT "clinic_day_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clinic_day_items_job_idx" ON "clinic_day_items" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "clinic_day_items_state_idx" ON "clinic_day_items" USING btree ("state");--> statement-breakpoint
CREATE INDEX "clinic_day_jobs_clinic_idx" ON "clinic_day_jobs" USING btree ("clinic_id","created_at");