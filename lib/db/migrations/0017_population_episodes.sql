-- The population view's level 2 hypoglycaemia episodes per week (issue 14). Episodes run across
-- midnight, so they cannot be summed from synced_egv_days: the sync counts them over the view's
-- period (lib/sync/episodes-store.ts) and keeps one row per connection, naming the days and the
-- readings it counted. Nothing is filled here: until a connection's next sync the view says the
-- figure is not yet computed, rather than show one for other days.
CREATE TABLE "synced_episodes" (
	"connection_id" text PRIMARY KEY NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	"n_values" integer NOT NULL,
	"hypo_level2_count" integer,
	"hypo_level2_per_day" double precision,
	"valid_grid_minutes" double precision,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "synced_episodes" ADD CONSTRAINT "synced_episodes_connection_id_cgm_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."cgm_connections"("id") ON DELETE cascade ON UPDATE no action;
