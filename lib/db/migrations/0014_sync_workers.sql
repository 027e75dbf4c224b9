CREATE TABLE "sync_workers" (
	"id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"process_start" text,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
