CREATE TABLE "statistics_windows" (
	"user_id" text PRIMARY KEY NOT NULL,
	"windows" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "statistics_windows" ADD CONSTRAINT "statistics_windows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;