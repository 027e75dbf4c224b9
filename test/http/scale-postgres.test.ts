import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseDateTime } from "@/lib/cgm/datetime";
import { type AppServer, startAppServer } from "../support/app-server";
import {
  type DashboardSession,
  dashboardApp,
  developer,
  proxyGet,
  signIn,
} from "../support/dashboard-client";
import { dt } from "../support/sandbox-client";
import { apiVersion, dataPath } from "../support/service-reference";
import { syncWorkerPass } from "../support/sync-worker-process";

/**
 * A clinic deployment on one PostgreSQL: two app processes (`next start`, the suite's server and a
 * second one on the same database, data folder and public URL, as behind a load balancer) and two
 * sync workers (`npm run sync`'s pass, in processes of their own). Checked from outside, as an
 * operator would: the service's count of refresh grants, the sync state, and the synced rows
 * against the service's own records read through the dashboard.
 *
 * PostgreSQL only: PGlite belongs to one process, so there is no second process to test with.
 */

const base = inject("baseUrl");
const dataDir = inject("dataDir");
const databaseUrl = process.env.TEST_DATABASE_URL;
const USERS = ["SandboxUser1", "SandboxUser3", "SandboxUser4"];
const DAY = 86_400_000;

describe.skipIf(!databaseUrl)(
  databaseUrl
    ? "several app processes and sync workers on one PostgreSQL"
    : "several app processes and sync workers on one PostgreSQL (skipped: needs TEST_DATABASE_URL, as PGlite belongs to one process)",
  () => {
    let second: AppServer;
    let database: pg.Client;
    const sessions: DashboardSession[] = [];
    let ids: string[] = [];
    const app = () => developer(base, dashboardApp(dataDir));

    beforeAll(async () => {
      database = new pg.Client({ connectionString: databaseUrl });
      await database.connect();
      second = await startAppServer({ DATABASE_URL: databaseUrl ?? "", DATA_DIR: dataDir, APP_URL: base });
      const { rows } = await database.query<{ now: Date }>("select now()");
      const since = rows[0]?.now;
      for (const user of USERS) sessions.push(await signIn(base, user));
      const connections = await database.query<{ id: string }>(
        "select id from cgm_connections where updated_at >= $1 order by created_at",
        [since],
      );
      ids = connections.rows.map((r) => r.id);
      // Under API v3 a sign-in reaches the account (and connection) an earlier suite made for the
      // same sandbox user, with whatever sync state that suite left: a backoff after its injected
      // failure, say. This deployment starts from no sync, as a new clinic's does.
      await database.query("delete from sync_state where connection_id = any($1)", [ids]);
    }, 120_000);

    afterAll(async () => {
      await second?.stop();
      await database?.end();
    });

    it("signed-in patients have one connection each, in the shared database", () => {
      expect(ids).toHaveLength(USERS.length);
    });

    it("both app processes refreshing at once spend each refresh token once", async () => {
      await app().expireTokens();
      const before = await app().stats();
      // Each patient's expired token meets a 401 in both processes at the same moment, 5 times each.
      const responses = await Promise.all(
        sessions.flatMap((session) =>
          [base, second.url].flatMap((url) =>
            Array.from({ length: 5 }, () => proxyGet(url, session, dataPath("dataRange"))),
          ),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
      const after = await app().stats();
      expect(after.refreshGrants - before.refreshGrants).toBe(USERS.length);
      expect(after.revokedGrants).toBe(before.revokedGrants);
    }, 60_000);

    /** One pass of a sync worker process over `ids`, starting at `startAt`; its outcomes. */
    const worker = (startAt: number) =>
      // The server's configuration: its database, data folder (secrets) and service.
      syncWorkerPass(startAt, ids, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, APP_URL: base });

    /** Two workers starting together (after each has loaded its modules); their outcomes. */
    async function twoWorkers() {
      const startAt = Date.now() + 8_000;
      return Promise.all([worker(startAt), worker(startAt)]);
    }

    /** Rows against distinct identities, and the stored EGVs against the service's, per patient. */
    async function checkRows() {
      for (const [i, id] of ids.entries()) {
        const counts = await database.query<{ rows: number; distinct: number }>(
          `select count(*)::int as rows, count(distinct system_time)::int as distinct
             from synced_egvs where connection_id = $1`,
          [id],
        );
        const events = await database.query<{ rows: number; distinct: number }>(
          `select count(*)::int as rows, count(distinct event_id)::int as distinct
             from synced_events where connection_id = $1`,
          [id],
        );
        expect(counts.rows[0]?.rows).toBe(counts.rows[0]?.distinct);
        expect(events.rows[0]?.rows).toBe(events.rows[0]?.distinct);

        const state = await database.query<{ through: Date }>(
          "select egvs_through as through from sync_state where connection_id = $1",
          [id],
        );
        const end = state.rows[0]?.through.getTime() ?? 0;
        // v3 leaves out its window's end: asked to a second past it, from a second later too, so the
        // window stays within the 90 days a request may read.
        const pastEnd = apiVersion() === "v3" ? 1000 : 0;
        const start = end - 90 * DAY + pastEnd;
        const stored = await database.query<{ t: Date }>(
          `select system_time as t from synced_egvs
             where connection_id = $1 and system_time between $2 and $3 order by system_time`,
          [id, new Date(start), new Date(end)],
        );
        const session = sessions[i] as DashboardSession;
        const res = await proxyGet(
          second.url,
          session,
          `${dataPath("egvs")}?startDate=${dt(start)}&endDate=${dt(end + pastEnd)}`,
        );
        expect(res.status).toBe(200);
        // v3: the envelope's records, as the dashboard reads them (systemTime a UTC DateTime).
        const body = (await res.json()) as Record<"egvs" | "records", Array<{ systemTime: string }>>;
        const service = apiVersion() === "v3" ? body.records : body.egvs;
        expect(service.length).toBeGreaterThan(1_000);
        expect(stored.rows.map((r) => dt(r.t.getTime()))).toEqual(
          service.map((e) => dt(parseDateTime(e.systemTime)!)),
        );
      }
    }

    it("two sync workers at once sync each patient exactly once, and the rows are the service's, once each", async () => {
      const refreshesBefore = (await app().stats()).refreshGrants;
      const results = await twoWorkers();
      const outcomes = results.flat();
      expect(outcomes.map((o) => o.connectionId).sort()).toEqual([...ids].sort());
      expect(outcomes.every((o) => o.result === "synced")).toBe(true);
      expect(outcomes.every((o) => o.records > 1_000)).toBe(true);
      const leases = await database.query(
        "select 1 from sync_state where connection_id = any($1) and locked_by is not null",
        [ids],
      );
      expect(leases.rowCount).toBe(0);
      // The tokens the app processes refreshed were fresh: the workers refreshed none.
      expect((await app().stats()).refreshGrants).toBe(refreshesBefore);
      await checkRows();
    }, 120_000);

    it("a patient leased by another worker is left alone by both", async () => {
      const [held, ...others] = ids;
      // A worker on another machine that keeps beating (its heartbeat ahead for the test's length).
      await database.query(
        `insert into sync_workers (id, host, pid, heartbeat_at)
         values ('elsewhere', 'another-machine', 1, now() + interval '10 minutes')`,
      );
      await database.query(
        `update sync_state set locked_by = 'elsewhere', locked_until = now() + interval '10 minutes',
           egvs_through = null, events_through = null, calibrations_through = null,
           last_success_at = now() - interval '1 hour'
         where connection_id = any($1)`,
        [ids],
      );
      await database.query(
        "update sync_state set locked_by = null, locked_until = null where connection_id = any($1)",
        [others],
      );
      const outcomes = (await twoWorkers()).flat();
      expect(outcomes.map((o) => o.connectionId).sort()).toEqual([...others].sort());
      const state = await database.query<{ locked_by: string; egvs_through: Date | null }>(
        "select locked_by, egvs_through from sync_state where connection_id = $1",
        [held],
      );
      expect(state.rows[0]).toEqual({ locked_by: "elsewhere", egvs_through: null });

      // The lease runs out: the next passes take the patient (and the others again, once each), and
      // its second backfill, written over the rows of the first, duplicates none of them.
      await database.query(
        "update sync_state set locked_until = now() - interval '1 second' where connection_id = $1",
        [held],
      );
      // An interval later, as far as the workers' passes can tell.
      await database.query(
        "update sync_state set last_success_at = now() - interval '1 hour' where connection_id = any($1)",
        [ids],
      );
      const again = (await twoWorkers()).flat();
      await database.query("delete from sync_workers where id = 'elsewhere'");
      expect(again.map((o) => o.connectionId).sort()).toEqual([...ids].sort());
      expect(again.every((o) => o.result === "synced")).toBe(true);
      expect(again.find((o) => o.connectionId === held)?.records).toBeGreaterThan(1_000);
      await checkRows();
    }, 120_000);
  },
);
