CREATE TABLE "clinic_patient_reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"clinic_id" text NOT NULL,
	"clinic_patient_id" text NOT NULL,
	"reviewer_user_id" text,
	"reviewer_name" text,
	"period_start" text NOT NULL,
	"period_end" text NOT NULL,
	"reviewed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clinic_patient_tags" (
	"clinic_id" text NOT NULL,
	"tag_id" text NOT NULL,
	"clinic_patient_id" text NOT NULL,
	CONSTRAINT "clinic_patient_tags_clinic_patient_id_tag_id_pk" PRIMARY KEY("clinic_patient_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "clinic_tags" (
	"id" text PRIMARY KEY NOT NULL,
	"clinic_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clinic_tags_clinic_name_uq" UNIQUE("clinic_id","name"),
	CONSTRAINT "clinic_tags_clinic_id_uq" UNIQUE("clinic_id","id")
);
--> statement-breakpoint
CREATE TABLE "patient_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"author_kind" text NOT NULL,
	"author_user_id" text NOT NULL,
	"clinic_id" text,
	"clinic_patient_id" text,
	"patient_user_id" text,
	"text" text NOT NULL,
	"start_at" timestamp with time zone,
	"end_at" timestamp with time zone,
	"clock_offset_minutes" integer,
	"shared" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clinic_patient_reviews" ADD CONSTRAINT "clinic_patient_reviews_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_patient_reviews" ADD CONSTRAINT "clinic_patient_reviews_clinic_patient_id_clinic_patients_id_fk" FOREIGN KEY ("clinic_patient_id") REFERENCES "public"."clinic_patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_patient_reviews" ADD CONSTRAINT "clinic_patient_reviews_reviewer_user_id_users_id_fk" FOREIGN KEY ("reviewer_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_patient_tags" ADD CONSTRAINT "clinic_patient_tags_clinic_patient_id_clinic_patients_id_fk" FOREIGN KEY ("clinic_patient_id") REFERENCES "public"."clinic_patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_patient_tags" ADD CONSTRAINT "clinic_patient_tags_clinic_id_tag_id_clinic_tags_clinic_id_id_fk" FOREIGN KEY ("clinic_id","tag_id") REFERENCES "public"."clinic_tags"("clinic_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_tags" ADD CONSTRAINT "clinic_tags_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_notes" ADD CONSTRAINT "patient_notes_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_notes" ADD CONSTRAINT "patient_notes_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_notes" ADD CONSTRAINT "patient_notes_clinic_patient_id_clinic_patients_id_fk" FOREIGN KEY ("clinic_patient_id") REFERENCES "public"."clinic_patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_notes" ADD CONSTRAINT "patient_notes_patient_user_id_users_id_fk" FOREIGN KEY ("patient_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clinic_patient_reviews_patient_idx" ON "clinic_patient_reviews" USING btree ("clinic_patient_id","reviewed_at");--> statement-breakpoint
CREATE INDEX "clinic_patient_tags_tag_idx" ON "clinic_patient_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "patient_notes_clinic_patient_idx" ON "patient_notes" USING btree ("clinic_patient_id","created_at");--> statement-breakpoint
CREATE INDEX "patient_notes_patient_user_idx" ON "patient_notes" USING btree ("patient_user_id","created_at");