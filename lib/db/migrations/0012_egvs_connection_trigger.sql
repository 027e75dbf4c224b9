-- synced_egvs loses its foreign key to cgm_connections (checked row by row, it was a quarter of a
-- year's backfill on PGlite); what the key's cascade did, this trigger does, and the sync's writer
-- locks the connection row before writing (lib/sync/store.ts, storeGroup). See lib/db/schema/synced.ts.
ALTER TABLE "synced_egvs" DROP CONSTRAINT "synced_egvs_connection_id_cgm_connections_id_fk";--> statement-breakpoint
CREATE FUNCTION "synced_egvs_follow_connection"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "synced_egvs" WHERE "connection_id" = OLD."id";
  RETURN OLD;
END
$$;--> statement-breakpoint
CREATE TRIGGER "synced_egvs_follow_connection" AFTER DELETE ON "cgm_connections"
  FOR EACH ROW EXECUTE FUNCTION "synced_egvs_follow_connection"();
