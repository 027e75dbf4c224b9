CREATE TABLE "sandbox_access_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"grant_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_apps" (
	"client_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"redirect_uris" jsonb NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"secret_rotated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_auth_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"username" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"grant_id" text
);
--> statement-breakpoint
CREATE TABLE "sandbox_faults" (
	"client_id" text PRIMARY KEY NOT NULL,
	"latency_ms" integer DEFAULT 0 NOT NULL,
	"fail_next" integer DEFAULT 0 NOT NULL,
	"fail_status" integer DEFAULT 503 NOT NULL,
	"retry_after_seconds" integer DEFAULT 1 NOT NULL,
	"rate_limit_per_hour" integer,
	"release_delay_minutes" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"username" text NOT NULL,
	"session_state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "sandbox_rate_counters" (
	"client_id" text NOT NULL,
	"hour_start" bigint NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sandbox_rate_counters_client_id_hour_start_pk" PRIMARY KEY("client_id","hour_start")
);
--> statement-breakpoint
CREATE TABLE "sandbox_refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"grant_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_access_tokens" ADD CONSTRAINT "sandbox_access_tokens_grant_id_sandbox_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."sandbox_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_auth_codes" ADD CONSTRAINT "sandbox_auth_codes_client_id_sandbox_apps_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."sandbox_apps"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_faults" ADD CONSTRAINT "sandbox_faults_client_id_sandbox_apps_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."sandbox_apps"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_grants" ADD CONSTRAINT "sandbox_grants_client_id_sandbox_apps_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."sandbox_apps"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_rate_counters" ADD CONSTRAINT "sandbox_rate_counters_client_id_sandbox_apps_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."sandbox_apps"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_refresh_tokens" ADD CONSTRAINT "sandbox_refresh_tokens_grant_id_sandbox_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."sandbox_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_access_tokens_grant_idx" ON "sandbox_access_tokens" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "sandbox_grants_user_idx" ON "sandbox_grants" USING btree ("username");--> statement-breakpoint
CREATE INDEX "sandbox_refresh_tokens_grant_idx" ON "sandbox_refresh_tokens" USING btree ("grant_id");