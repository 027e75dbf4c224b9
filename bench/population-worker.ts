/**
 * The population benchmark's server side (bench/population.ts runs it in a child process, with
 * `node --conditions react-server --import tsx`, so the app's server modules load as on the server):
 * fills a database with one clinic of BENCH_POPULATION_PATIENTS patients, each with 28 days of
 * synced EGVs (one every 5 minutes, 2 to 34 % missing, display clocks in several zones), their
 * daily sums, sync state and service statistics; then times `populationOf` in this process. The
 * database is the one of DATABASE_URL, or PGlite under DATA_DIR. Prints one line of JSON.
 *
 * Everything is generated inside the database (8 million readings would take minutes to send
 * from here), the daily sums too, by a GROUP BY that is simple for these readings (whole mg/dL,
 * status set on 39 and 401). That it matches the sync's own code (lib/sync/daily-store.ts) is
 * checked on a sample of patients before anything is timed: the benchmark stops if not.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { populationOf } from "@/lib/clinic/views/population";
import { db, schema } from "@/lib/db";
import { type DayRollup, dayRollups } from "@/lib/sync/daily";
import { rebuildEgvDays } from "@/lib/sync/daily-store";

const PATIENTS = Number(process.env.BENCH_POPULATION_PATIENTS ?? 1000);
const RUNS = Number(process.env.BENCH_POPULATION_RUNS ?? 15);
const DAYS = 28;
const BATCH = 25;
const RAW_PATIENTS = Number(
  process.env.BENCH_POPULATION_RAW_PATIENTS ?? (process.env.DATABASE_URL ? PATIENTS : Math.min(PATIENTS, 50)),
);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

/**
 * The generated daily sums must be what the sync's own code makes of the same readings: the
 * rollup's definition over the rows read back (dayRollups, from value, unit and status), and the
 * sync's recount in the database (rebuildEgvDays, from the stored metric values and ranges).
 */
async function checkSample(ids: string[]) {
  const database = await db();
  const days = schema.syncedEgvDays;
  const KEYS = [
    "day",
    "n",
    "veryLow",
    "low",
    "inRange",
    "high",
    "veryHigh",
    "below63",
    "above140",
    "tightRange",
    "sum",
    "sumOfSquares",
  ] as const;
  const strip = (rows: (Omit<DayRollup, "day"> & { day: string })[]) =>
    rows
      .map((d) => JSON.stringify([...KEYS.map((k) => d[k]), d.lastSystemTime.getTime(), d.lastDisplayTime]))
      .sort();
  for (const id of ids) {
    const generated = strip(await database.select().from(days).where(eq(days.connectionId, id)));
    const rows = await database
      .select()
      .from(schema.syncedEgvs)
      .where(eq(schema.syncedEgvs.connectionId, id));
    const defined = strip(dayRollups(rows));
    await database.transaction((tx) => rebuildEgvDays(tx, id));
    const bySync = strip(await database.select().from(days).where(eq(days.connectionId, id)));
    if (generated.length < 28 || generated.join() !== defined.join() || generated.join() !== bySync.join()) {
      throw new Error(`the generated daily sums of ${id} differ from the sync's`);
    }
  }
}

async function main() {
  const database = await db();
  const t0 = performance.now();
  const clinicId = randomUUID();
  const userId = randomUUID();
  const sessionToken = randomBytes(32).toString("base64url");
  await database.insert(schema.users).values({ id: userId, name: "Dr Benchmark" });
  await database.insert(schema.clinics).values({ id: clinicId, name: "Benchmark clinic" });
  await database.insert(schema.clinicMembers).values({ clinicId, userId, role: "admin" });
  await database.insert(schema.sessions).values({
    tokenHash: createHash("sha256").update(sessionToken).digest("base64url"),
    userId,
    expires: new Date(Date.now() + 86_400_000),
  });

  const now = Date.now();
  const end = new Date(Math.floor(now / 300_000) * 300_000 - 600_000);
  const start = new Date(end.getTime() - DAYS * 86_400_000);
  const ids = Array.from({ length: PATIENTS }, () => randomUUID());
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const json = JSON.stringify(batch.map((id, k) => ({ id, k: i + k })));
    await database.transaction(async (tx) => {
      await tx.insert(schema.cgmConnections).values(batch.map((id) => ({ id, ownerId: `bench-${id}` })));
      await tx.insert(schema.syncState).values(
        batch.map((id) => ({
          connectionId: id,
          lastSuccessAt: new Date(),
          backfillDone: true,
          egvsThrough: end,
        })),
      );
      await tx.insert(schema.clinicPatients).values(
        batch.map((id, k) => ({
          id: randomUUID(),
          clinicId,
          name: `Patient ${String(i + k + 1).padStart(4, "0")}`,
          birthDate: "1970-01-01",
          connectionId: id,
          acceptedAt: new Date(),
        })),
      );
      // Readings from SQL: a daily wave per patient, its own level, noise from a hash, gaps (2 to
      // 34 % of readings) where the hash says so, and the display clock in one of five zones (UTC−8 to UTC+9). Made in a
      // scratch table without an index, summed per day from there, and kept as synced rows for the
      // first RAW_PATIENTS patients (PGlite takes minutes and gigabytes for 8 million rows).
      await tx.execute(sql`
        create temp table if not exists bench_egvs (connection_id text, system_time timestamptz,
          display_time text, value float8, status text) on commit delete rows`);
      await tx.execute(sql`
        insert into bench_egvs
        select p.id, t,
          to_char((t at time zone 'UTC') + make_interval(hours => ((p.k % 5) * 4 - 8)), 'YYYY-MM-DD"T"HH24:MI:SS'),
          v.value, case when v.value = 39 then 'low' when v.value = 401 then 'high' end
        from json_to_recordset(${json}::json) as p(id text, k int)
        cross join generate_series(${start.toISOString()}::timestamptz, ${end.toISOString()}::timestamptz, interval '5 minutes') as t
        cross join lateral (select abs(hashtext(p.id || t::text)) % 1000 as h) as r
        cross join lateral (
          select least(401, greatest(39, round(
            112 + (p.k % 9) * 9 + 45 * sin(extract(epoch from t) / 13751.0 + p.k) + (r.h % 60) - 30
          )))::float8 as value
        ) as v
        where r.h >= 20 + (p.k % 10) * 35`);
      await tx.execute(sql`
        insert into synced_egv_days (connection_id, day, n, very_low, low, in_range, high, very_high,
          below_63, above_140, tight_range, sum, sum_of_squares, last_system_time, last_display_time)
        select e.connection_id, left(e.display_time, 10)::date, count(*),
          count(*) filter (where e.value < 54), count(*) filter (where e.value >= 54 and e.value < 70),
          count(*) filter (where e.value >= 70 and e.value <= 180),
          count(*) filter (where e.value > 180 and e.value <= 250), count(*) filter (where e.value > 250),
          count(*) filter (where e.value < 63), count(*) filter (where e.value > 140),
          count(*) filter (where e.value >= 70 and e.value <= 140),
          sum(e.value), sum(e.value * e.value), max(e.system_time),
          (array_agg(e.display_time order by e.system_time desc))[1]
        from bench_egvs e
        group by e.connection_id, left(e.display_time, 10)`);
      const raw = batch.slice(0, Math.max(0, RAW_PATIENTS - i));
      if (raw.length > 0) {
        await tx.execute(sql`
          insert into synced_egvs (connection_id, system_time, display_time, value, realtime_value, unit, rate_unit,
            status, metric_mgdl, consensus_range)
          select connection_id, system_time, display_time, value, value, 'mg/dL', 'mg/dL/min', status, value,
            case when value < 54 then 'veryLow' when value < 70 then 'low' when value <= 180 then 'inRange'
              when value <= 250 then 'high' else 'veryHigh' end
          from bench_egvs where connection_id in (select json_array_elements_text(${JSON.stringify(raw)}::json))`);
      }
      await tx.insert(schema.syncedStatistics).values(
        batch.map((id, k) => ({
          connectionId: id,
          windowStart: new Date(end.getTime() - 14 * 86_400_000),
          windowEnd: end,
          hypoglycemiaRisk: (["minimal", "low", "moderate", "high", null] as const)[(i + k) % 5] ?? null,
          fetchedAt: new Date(),
        })),
      );
    });
  }
  const generateMs = performance.now() - t0;
  await checkSample(
    ids.slice(0, RAW_PATIENTS).filter((_, i) => i % Math.max(1, Math.floor(RAW_PATIENTS / 5)) === 0),
  );
  const [egvCount] = (await database.execute<{ n: string }>(sql`select count(*) as n from synced_egvs`)).rows;

  for (let i = 0; i < 3; i++) await populationOf(clinicId);
  const runs: number[] = [];
  let rows = 0;
  let flagged = 0;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const view = await populationOf(clinicId);
    runs.push(performance.now() - t);
    rows = view.rows.length;
    flagged = view.rows.filter((r) => r.flags.length > 0).length;
  }
  process.stdout.write(
    `${JSON.stringify({
      clinicId,
      sessionToken,
      patients: PATIENTS,
      rawPatients: RAW_PATIENTS,
      egvs: Number(egvCount?.n ?? 0),
      generateMs,
      medianMs: median(runs),
      maxMs: Math.max(...runs),
      rows,
      flagged,
    })}\n`,
  );
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
