-- One patient account per service account (issue 15, item 7). Under API v3 the service names the
-- account that signed in (the envelope's userId, per account and client app); its HMAC is kept on
-- the patient account, unique, so every sign-in of that account reaches the same dashboard account
-- and two sign-ins racing cannot make two. Existing accounts stay null until a v3 sign-in names
-- them. authorized_at: when the stored tokens' code exchange completed, so that of two sign-ins at
-- once the later authorization is kept; null (older than any) for the connections stored before.
ALTER TABLE "users" ADD COLUMN "service_user_hash" text;--> statement-breakpoint
ALTER TABLE "cgm_connections" ADD COLUMN "authorized_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "users_service_user_hash_key" ON "users" USING btree ("service_user_hash");