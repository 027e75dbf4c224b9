import "server-only";
import { asc, eq, sql } from "drizzle-orm";
import { type Db, db, schema } from "@/lib/db";
import { parseTargetGroup } from "@/lib/metrics/targets";
import { targetGroupForClinic } from "@/lib/preferences/target-group";
import type { ReadingSums } from "@/lib/sync/daily";
import { type ClinicThresholds, triageSettingsOf } from "../domain/triage-settings";
import {
  type ConnectionSums,
  type PatientSource,
  PERIOD_DAYS,
  type PopulationRow,
  populationRow,
} from "./population-model";

/**
 * The clinic's population (triage) view: every patient of the clinic with the consensus metrics
 * of their last 14 days (population-model.ts says which days) from the sync's daily sums, the
 * level 2 hypoglycaemia episodes the sync counted over those days, the service's hypoglycemia
 * risk as the sync last fetched it, and the flags under the clinic's thresholds. Two queries
 * whatever the number of patients: the patients with their connection, sync, episodes and
 * statistics rows, then the sums of 28 days per connection, added up in the database.
 */

export interface Population {
  thresholds: ClinicThresholds;
  rows: PopulationRow[];
  now: string;
}

async function patientsOf(database: Db, clinicId: string): Promise<PatientSource[]> {
  const {
    clinicPatients: p,
    cgmConnections: c,
    syncState: s,
    syncedStatistics: st,
    syncedEpisodes: ep,
    userPreferences: up,
  } = schema;
  const rows = await database
    .select({
      id: p.id,
      name: p.name,
      birthDate: p.birthDate,
      connectionId: p.connectionId,
      connectionStatus: c.status,
      acceptedAt: p.acceptedAt,
      withdrawnAt: p.withdrawnAt,
      inviteExpiresAt: p.inviteExpiresAt,
      lastSyncAt: s.lastSuccessAt,
      hypoglycemiaRisk: st.hypoglycemiaRisk,
      riskFetchedAt: st.fetchedAt,
      clinicGroup: p.targetGroup,
      ownGroup: up.targetGroup,
      episodesFirstDay: ep.firstDay,
      episodesLastDay: ep.lastDay,
      episodesN: ep.nValues,
      hypoLevel2Count: ep.hypoLevel2Count,
      hypoLevel2PerDay: ep.hypoLevel2PerDay,
      validGridMinutes: ep.validGridMinutes,
    })
    .from(p)
    .leftJoin(c, eq(c.id, p.connectionId))
    .leftJoin(up, eq(up.userId, p.patientUserId))
    .leftJoin(s, eq(s.connectionId, p.connectionId))
    .leftJoin(st, eq(st.connectionId, p.connectionId))
    .leftJoin(ep, eq(ep.connectionId, p.connectionId))
    .where(eq(p.clinicId, clinicId))
    .orderBy(asc(p.name), asc(p.id));
  // Judged by the clinic's choice, else the patient's (the rule of lib/preferences/target-group.ts).
  return rows.map(
    ({
      clinicGroup,
      ownGroup,
      episodesFirstDay,
      episodesLastDay,
      episodesN,
      hypoLevel2Count,
      hypoLevel2PerDay,
      validGridMinutes,
      ...r
    }) => {
      const clinic = parseTargetGroup(clinicGroup);
      const choice = clinic && { clinicName: "", group: clinic, setAt: new Date(0) };
      // The sync's count of the connection's episodes (lib/sync/episodes-store.ts), if any yet.
      const episodes =
        episodesFirstDay !== null && episodesLastDay !== null && episodesN !== null
          ? {
              firstDay: episodesFirstDay,
              lastDay: episodesLastDay,
              nValues: episodesN,
              hypoLevel2Count,
              hypoLevel2PerDay,
              validGridMinutes,
            }
          : null;
      return {
        ...r,
        targetGroup: targetGroupForClinic(choice, parseTargetGroup(ownGroup)).group,
        episodes,
      };
    },
  );
}

type SumsRow = Record<string, unknown> & { connection_id: string };

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

function periodSums(r: SumsRow, prefix: "" | "prev_"): ReadingSums {
  return {
    n: num(r[`${prefix}n`]),
    veryLow: num(r[`${prefix}very_low`]),
    low: num(r[`${prefix}low`]),
    inRange: num(r[`${prefix}in_range`]),
    high: num(r[`${prefix}high`]),
    veryHigh: num(r[`${prefix}very_high`]),
    below63: num(r[`${prefix}below_63`]),
    above140: num(r[`${prefix}above_140`]),
    tightRange: num(r[`${prefix}tight_range`]),
    sum: num(r[`${prefix}sum`]),
    sumOfSquares: num(r[`${prefix}sum_of_squares`]),
  };
}

/**
 * Per connection: the newest day's reading (its systemTime, and the clock offset that makes the
 * patient's today), then the sums over the current and previous 14 days of that calendar. The
 * latest day is found through the primary key (one index probe per connection); the days are a
 * range of it. The ids go as one JSON parameter, whatever their number.
 */
async function sumsOf(
  database: Db,
  connectionIds: string[],
  now: Date,
): Promise<Map<string, ConnectionSums>> {
  if (connectionIds.length === 0) return new Map();
  const cols = [
    "n",
    "very_low",
    "low",
    "in_range",
    "high",
    "very_high",
    "below_63",
    "above_140",
    "tight_range",
    "sum",
    "sum_of_squares",
  ];
  const current = cols.map((c) => `sum(d.${c}) filter (where d.day > b.today - ${PERIOD_DAYS}) as ${c}`);
  const previous = cols.map(
    (c) => `sum(d.${c}) filter (where d.day <= b.today - ${PERIOD_DAYS}) as prev_${c}`,
  );
  const result = await database.execute<SumsRow>(sql`
    with bounds as materialized (
      select i.connection_id, l.last_system_time, l.offset_s,
        ((${now.toISOString()}::timestamptz at time zone 'UTC')
          + make_interval(secs => l.offset_s))::date as today
      from json_array_elements_text(${JSON.stringify(connectionIds)}::json) as i(connection_id)
      cross join lateral (
        select d.last_system_time,
          extract(epoch from (d.last_display_time::timestamp - (d.last_system_time at time zone 'UTC')))::float8 as offset_s
        from synced_egv_days d
        where d.connection_id = i.connection_id order by d.day desc limit 1
      ) l
    )
    select b.connection_id, extract(epoch from b.last_system_time) * 1000 as last_ms, b.offset_s, s.*
    from bounds b
    cross join lateral (
      select ${sql.raw([...current, ...previous].join(",\n        "))}
      from synced_egv_days d
      where d.connection_id = b.connection_id
        and d.day between b.today - ${sql.raw(String(2 * PERIOD_DAYS - 1))} and b.today
    ) s`);
  const sums = new Map<string, ConnectionSums>();
  for (const r of result.rows) {
    sums.set(r.connection_id, {
      lastSystemMs: num(r.last_ms),
      clockOffsetMs: num(r.offset_s) * 1000,
      current: periodSums(r, ""),
      previous: periodSums(r, "prev_"),
    });
  }
  return sums;
}

/** The population view of a clinic at `now` (default: the current time). */
export async function populationOf(clinicId: string, now = new Date(), database?: Db): Promise<Population> {
  const d = database ?? (await db());
  const [thresholds, patients] = await Promise.all([triageSettingsOf(clinicId, d), patientsOf(d, clinicId)]);
  const ids = patients.flatMap((p) => (p.connectionId ? [p.connectionId] : []));
  const sums = await sumsOf(d, ids, now);
  const rows = patients.map((p) =>
    populationRow(p, p.connectionId ? sums.get(p.connectionId) : undefined, thresholds, now.getTime()),
  );
  return { thresholds, rows, now: now.toISOString() };
}
