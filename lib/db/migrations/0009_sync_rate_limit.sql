CREATE TABLE "sync_rate_limit" (
	"client_id" text PRIMARY KEY NOT NULL,
	"tat_ms" double precision NOT NULL
);
