"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { inputClass, secondaryButtonClass } from "@/components/clinic/ClinicForm";
import { GoalMark } from "@/components/glucose/GoalList";
import { useViewerInstant } from "@/components/layout/ViewerTime";
import { Blank, RecordTable, TH_COL } from "@/components/records/RecordTable";
import { formatMgdlIn, mgdlRangeText } from "@/lib/cgm/glucose-text";
import type { HypoglycemiaRisk } from "@/lib/cgm/schemas";
import type { GlucoseUnit } from "@/lib/cgm/units";
import {
  FLAG_NAMES,
  type FlagThresholds,
  flagLabel,
  percentBesideThresholds,
  TRIAGE_FLAGS,
  type TriageFlag,
  type TriageThresholds,
  triageFor,
} from "@/lib/clinic/domain/triage";
import {
  type PatientStatus,
  type PopulationRow,
  type PopulationSort,
  STATUS_LABELS,
} from "@/lib/clinic/views/population-model";
import {
  IN_RANGE_MAX_MGDL,
  LOW_BELOW_MGDL,
  TIGHT_RANGE_MAX_MGDL,
  TIGHT_RANGE_MIN_MGDL,
  VERY_LOW_BELOW_MGDL,
} from "@/lib/metrics/constants";
import type { GoalMetric } from "@/lib/metrics/targets";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { episodeRule } from "@/lib/reports/episodes-view";

/**
 * The population table: sorted by any column (a button in each header; aria-sort says the order),
 * filtered by name, by "flagged only" and by one flag. Every flag is written out ("Below 54 ≥ 1 %"),
 * the colour only repeats it. Sorting and filtering run in the browser over every row (1,000 rows
 * re-sort in a few milliseconds); only the first PAGE rows of the result are drawn, with a button
 * for more, so a clinic of 1,000 patients does not get 1,000 table rows of HTML (3 MB, most of the
 * page's server time) when the flagged ones it opens the view for come first. Cell styles are set
 * once on the table, not repeated on each of the 14,000 cells.
 */

const PAGE = 100;

type SortKey =
  | "name"
  | "veryLow"
  | "low"
  | "inRange"
  | "high"
  | "tightRange"
  | "veryLowEpisodes"
  | "change"
  | "mean"
  | "gmi"
  | "cv"
  | "gri"
  | "sensor"
  | "risk"
  | "lastData"
  | "flags"
  | "tags"
  | "reviewed";

const RISK_ORDER: Record<HypoglycemiaRisk, number> = { minimal: 0, low: 1, moderate: 2, high: 3 };
const RISK_LABEL: Record<HypoglycemiaRisk, string> = {
  minimal: "Minimal",
  low: "Low",
  moderate: "Moderate",
  high: "High",
};

function sortValue(row: PopulationRow, key: SortKey): number | string | null {
  const m = row.metrics;
  const t = m?.timeInRanges;
  switch (key) {
    case "name":
      return row.name.toLocaleLowerCase();
    case "veryLow":
      return t?.veryLow ?? null;
    case "low":
      return t ? t.veryLow + t.low : null;
    case "inRange":
      return t?.inRange ?? null;
    case "high":
      return t ? t.high + t.veryHigh : null;
    case "tightRange":
      return m?.timeInTightRange ?? null;
    case "veryLowEpisodes":
      return row.veryLowEpisodes?.state === "known" ? row.veryLowEpisodes.perWeek : null;
    case "change":
      return t && row.previousInRange !== null ? t.inRange - row.previousInRange : null;
    case "mean":
      return m?.mean ?? null;
    case "gmi":
      return m?.gmi ?? null;
    case "cv":
      return m?.cv ?? null;
    case "gri":
      return m?.gri ?? null;
    case "sensor":
      return m?.sensorActivePercent ?? null;
    case "risk":
      return row.hypoglycemiaRisk ? RISK_ORDER[row.hypoglycemiaRisk] : null;
    case "lastData":
      return row.daysSinceLastData;
    case "flags":
      return row.flags.length;
    case "tags":
      return row.tags?.[0]?.name.toLocaleLowerCase() ?? null;
    case "reviewed":
      return row.lastReview?.reviewedAt ?? null;
  }
}

/** Most urgent first where it means something: many flags, much time low, old data. */
const FIRST_DIRECTION: Record<SortKey, "ascending" | "descending"> = {
  name: "ascending",
  veryLow: "descending",
  low: "descending",
  inRange: "ascending",
  high: "descending",
  tightRange: "ascending",
  veryLowEpisodes: "descending",
  change: "ascending",
  mean: "descending",
  gmi: "descending",
  cv: "descending",
  gri: "descending",
  sensor: "ascending",
  risk: "descending",
  lastData: "descending",
  flags: "descending",
  tags: "ascending",
  // Longest since a review first; never reviewed go last, as every row without a value.
  reviewed: "ascending",
};

/** A percentage, never shown on the other side of the column's flag thresholds (`percentBesideThresholds`). */
const pct = (v: number | null | undefined, thresholds: readonly number[] = []) =>
  v === null || v === undefined ? null : `${percentBesideThresholds(v, thresholds)} %`;

function Value({ text, label }: { text: string | null; label?: string }) {
  return text === null ? <Blank label={label ?? "no data"} /> : text;
}

/**
 * A percentage judged against its consensus goal: the number (never shown across the goal or the
 * column's flag thresholds), then "✓ met" or "✗ not met" in words beneath.
 */
function Judged({
  row,
  metric,
  value,
  thresholds = [],
}: {
  row: PopulationRow;
  metric: GoalMetric;
  value: number | null | undefined;
  thresholds?: readonly number[];
}) {
  const goal = row.metrics?.goals.find((g) => g.metric === metric);
  if (value === null || value === undefined || !goal) return <Value text={pct(value, thresholds)} />;
  return (
    <>
      <span data-value="">{pct(value, [...thresholds, goal.goal])}</span>
      <span className="block text-xs whitespace-nowrap" data-met={goal.met}>
        <GoalMark met={goal.met} />
      </span>
    </>
  );
}

const FLAG_CLASS =
  "inline-block rounded border border-red-800 bg-red-50 px-1.5 py-0.5 text-xs font-medium text-red-950 dark:border-red-300 dark:bg-red-950 dark:text-red-100";

/** Patients whose data the clinic can read, as the clinic page offers their reports. */
const SHARES: ReadonlySet<PatientStatus> = new Set(["connected", "not_synced"]);

function Flags({
  flags,
  thresholds,
  unit,
}: {
  flags: TriageFlag[];
  /** The row's own: the clinic's thresholds, or its group's goals (triage.ts `triageFor`). */
  thresholds: FlagThresholds;
  unit: GlucoseUnit;
}) {
  if (flags.length === 0) return <span className="text-slate-600 dark:text-slate-400">None</span>;
  return (
    <ul className="flex min-w-[8rem] flex-wrap gap-1" aria-label={`${flags.length} flags`}>
      {flags.map((f) => (
        <li key={f} className={FLAG_CLASS} data-flag={f}>
          <span aria-hidden="true">⚑ </span>
          {flagLabel(f, thresholds, unit)}
        </li>
      ))}
    </ul>
  );
}

function Change({ row, dropPoints }: { row: PopulationRow; dropPoints: number }) {
  const now = row.metrics?.timeInRanges?.inRange;
  if (now === undefined || row.previousInRange === null) return <Blank label="no previous period" />;
  const d = now - row.previousInRange;
  const sign = d > 0 ? "+" : d < 0 ? "−" : "±";
  return (
    <span title={`previous 14 days: ${row.previousInRange.toFixed(1)} %`}>
      {sign}
      {percentBesideThresholds(Math.abs(d), d < 0 ? [dropPoints] : [])}
      <span className="sr-only"> points since the previous 14 days ({row.previousInRange.toFixed(1)} %)</span>
    </span>
  );
}

function LastData({ row }: { row: PopulationRow }) {
  if (row.daysSinceLastData === null || row.lastDataAt === null) return <Blank label="no data" />;
  return <LastDataAt at={row.lastDataAt} days={row.daysSinceLastData} />;
}

/**
 * The age of the newest reading in days, and its moment on the viewer's clock with the zone named
 * (ViewerTime: UTC from the server, the viewer's zone once the page runs) in its title and in the
 * words a screen reader reads.
 */
function LastDataAt({ at, days }: { at: string; days: number }) {
  const when = useViewerInstant(at);
  const words = days === 0 ? "Today" : days === 1 ? "1 day ago" : `${days} days ago`;
  return (
    <time dateTime={at} title={`Last reading ${when}`} data-viewer-time>
      <span aria-hidden="true">{days === 0 ? "Today" : `${days} d`}</span>
      <span className="sr-only">
        {words}, {when}
      </span>
    </time>
  );
}

/**
 * Level 2 hypoglycaemia episodes per week (population-model.ts `weeklyEpisodes`), one decimal
 * (none for 0): no consensus goal exists for it, so it is shown unjudged. A count of other days
 * or readings than the row's is not shown: the next sync counts them.
 */
function VeryLowEpisodes({ row }: { row: PopulationRow }) {
  const e = row.veryLowEpisodes;
  if (e === null) return <Blank label="no data" />;
  if (e.state === "pending")
    return (
      <span title="Not yet counted for these days: the next sync counts them">
        <Blank label="not yet counted for these days; the next sync counts them" />
      </span>
    );
  if (e.state === "sparse")
    return (
      <span title="Readings too far apart to count episodes">
        <Blank label="readings too far apart to count episodes" />
      </span>
    );
  const detail = `${e.count} episode${e.count === 1 ? "" : "s"} in ${e.sensorDays.toFixed(1)} days of sensor time`;
  return (
    <span title={detail} data-count={e.count}>
      <span data-value="">{e.count === 0 ? "0" : e.perWeek.toFixed(1)}</span>
      <span className="sr-only"> per week ({detail})</span>
    </span>
  );
}

function Risk({ row }: { row: PopulationRow }) {
  if (row.status !== "connected" && row.status !== "reconnect_needed") return <Blank />;
  if (!row.riskKnown) return <span className="text-slate-600 dark:text-slate-400">Not yet</span>;
  if (!row.hypoglycemiaRisk)
    return (
      <span
        className="text-slate-600 dark:text-slate-400"
        title="The service needs more sensor use to estimate it"
      >
        Too little data
      </span>
    );
  return <span data-risk={row.hypoglycemiaRisk}>{RISK_LABEL[row.hypoglycemiaRisk]}</span>;
}

/** The columns, their glucose edges and the mean in the unit the clinician chose. */
function columnsIn(unit: GlucoseUnit): { key: SortKey; label: string; hint?: string; numeric?: boolean }[] {
  const g = (mgdl: number) => formatMgdlIn(mgdl, unit);
  return [
    { key: "name", label: "Patient" },
    { key: "flags", label: "Flags" },
    { key: "tags", label: "Tags" },
    { key: "reviewed", label: "Last reviewed", hint: "when (UTC), by whom, and the period" },
    {
      key: "veryLow",
      label: `< ${g(VERY_LOW_BELOW_MGDL)}`,
      hint: `time below ${g(VERY_LOW_BELOW_MGDL)} ${unit}`,
      numeric: true,
    },
    {
      key: "low",
      label: `< ${g(LOW_BELOW_MGDL)}`,
      hint: `time below ${g(LOW_BELOW_MGDL)} ${unit}`,
      numeric: true,
    },
    {
      key: "inRange",
      label: "In range",
      hint: `time ${mgdlRangeText(LOW_BELOW_MGDL, IN_RANGE_MAX_MGDL, unit)}`,
      numeric: true,
    },
    {
      key: "high",
      label: `> ${g(IN_RANGE_MAX_MGDL)}`,
      hint: `time above ${g(IN_RANGE_MAX_MGDL)} ${unit}`,
      numeric: true,
    },
    // Time in tight range of the 2023 consensus.
    {
      key: "tightRange",
      label: "Tight range",
      hint: `time ${mgdlRangeText(TIGHT_RANGE_MIN_MGDL, TIGHT_RANGE_MAX_MGDL, unit)}`,
      numeric: true,
    },
    // CGM episodes of the 2023 consensus, per 7 days of sensor time.
    {
      key: "veryLowEpisodes",
      label: "Level 2 lows/week",
      hint: `episodes ${episodeRule("hypoLevel2", unit)}, per 7 days of sensor time`,
      numeric: true,
    },
    { key: "change", label: "Change", hint: "points since the previous 14 days", numeric: true },
    { key: "mean", label: "Mean", hint: unit, numeric: true },
    { key: "gmi", label: "GMI", numeric: true },
    { key: "cv", label: "CV", numeric: true },
    { key: "gri", label: "GRI", numeric: true },
    { key: "sensor", label: "Sensor use", numeric: true },
    { key: "risk", label: "Hypo risk", hint: "the service's estimate" },
    { key: "lastData", label: "Last data", numeric: true },
  ];
}

export function PopulationTable({
  rows,
  thresholds,
  unit,
  initialSort = "flags",
}: {
  rows: PopulationRow[];
  /** The order the table is first drawn in (a link's ?sort=), before any header is pressed. */
  initialSort?: PopulationSort;
  thresholds: TriageThresholds;
  /** The clinician's unit: the edges in the headers and flags, and the mean. */
  unit: GlucoseUnit;
}) {
  const columns = useMemo(() => columnsIn(unit), [unit]);
  // A stacked row on a phone names each value by its column (app/globals.css, stack-narrow).
  const labelOf = (key: SortKey) => {
    const c = columns.find((c) => c.key === key);
    return c ? (c.hint ? `${c.label} (${c.hint})` : c.label) : key;
  };
  const [sort, setSort] = useState<{ key: SortKey; direction: "ascending" | "descending" }>({
    key: initialSort,
    direction: FIRST_DIRECTION[initialSort],
  });
  const [query, setQuery] = useState("");
  const [flaggedOnly, setFlaggedOnly] = useState(false);
  const [flag, setFlag] = useState<TriageFlag | "">("");
  const [limit, setLimit] = useState(PAGE);

  const shown = useMemo(() => {
    const q = query.trim().toLocaleLowerCase();
    const filtered = rows.filter(
      (r) =>
        (q === "" || r.name.toLocaleLowerCase().includes(q)) &&
        (!flaggedOnly || r.flags.length > 0) &&
        (flag === "" || r.flags.includes(flag)),
    );
    const sign = sort.direction === "ascending" ? 1 : -1;
    return filtered.sort((a, b) => {
      const x = sortValue(a, sort.key);
      const y = sortValue(b, sort.key);
      // Rows without a value go last whichever the direction: they have nothing to rank.
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
      } else if (x !== y) {
        return (x < y ? -1 : 1) * sign;
      }
      return a.name.localeCompare(b.name);
    });
  }, [rows, query, flaggedOnly, flag, sort]);

  const sortBy = (key: SortKey) =>
    setSort((s) =>
      s.key === key
        ? { key, direction: s.direction === "ascending" ? "descending" : "ascending" }
        : { key, direction: FIRST_DIRECTION[key] },
    );

  const flaggedCount = rows.filter((r) => r.flags.length > 0).length;
  const drawn = shown.slice(0, limit);

  return (
    <div className="space-y-3">
      <fieldset className="grid gap-3 sm:grid-cols-[minmax(0,24rem)_minmax(0,24rem)_auto] sm:items-end">
        <legend className="sr-only">Filter the patients</legend>
        <div>
          <label htmlFor="population-search" className="block font-medium">
            Search by name
          </label>
          <input
            id="population-search"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            className={inputClass}
            autoComplete="off"
          />
        </div>
        <div>
          <label htmlFor="population-flag" className="block font-medium">
            Flag
          </label>
          <select
            id="population-flag"
            value={flag}
            onChange={(e) => setFlag(e.target.value as TriageFlag | "")}
            className={inputClass}
          >
            <option value="">Any</option>
            {TRIAGE_FLAGS.map((f) => (
              <option key={f} value={f}>
                {FLAG_NAMES[f]}: {flagLabel(f, thresholds, unit)}
              </option>
            ))}
          </select>
        </div>
        <label className="flex items-center gap-2 py-2 font-medium">
          <input
            type="checkbox"
            checked={flaggedOnly}
            onChange={(e) => setFlaggedOnly(e.target.checked)}
            className="h-5 w-5"
          />
          Flagged only ({flaggedCount})
        </label>
      </fieldset>
      <p role="status" className="text-sm text-slate-700 dark:text-slate-300" data-testid="population-count">
        {shown.length === rows.length
          ? `${rows.length} patients`
          : `${shown.length} of ${rows.length} patients match`}
        {drawn.length < shown.length ? `; the first ${drawn.length} are shown.` : "."}
      </p>
      <RecordTable
        caption="Patients with the metrics of their last 14 days; the column buttons sort the table."
        label="Patients"
        captionHidden
        fitWidth
        testId="population"
        className="[&_thead_th]:px-2 [&_td]:px-2 [&_td]:py-2 [&_tbody_th]:px-2 [&_tbody_th]:py-2 [&_tbody_tr]:border-b [&_tbody_tr]:border-slate-200 dark:[&_tbody_tr]:border-slate-800 [&_td.n]:text-right [&_td.n]:whitespace-nowrap [&_td.n]:tabular-nums"
      >
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                aria-sort={sort.key === c.key ? sort.direction : undefined}
                className={`${TH_COL} ${c.numeric ? "text-right" : ""}`}
              >
                <button
                  type="button"
                  onClick={() => sortBy(c.key)}
                  className="inline-flex items-center gap-1 rounded font-semibold underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-700"
                >
                  {c.label}
                  {c.hint && <span className="sr-only">, {c.hint}</span>}
                  <span aria-hidden="true" className="w-3 text-xs">
                    {sort.key === c.key ? (sort.direction === "ascending" ? "▲" : "▼") : ""}
                  </span>
                </button>
              </th>
            ))}
            <th scope="col" className={TH_COL}>
              Reports
            </th>
          </tr>
        </thead>
        <tbody>
          {drawn.map((r) => {
            const t = r.metrics?.timeInRanges;
            const num = "n";
            return (
              <tr key={r.id} data-patient={r.id} data-flags={r.flags.join(" ")}>
                <th scope="row" className="min-w-[10rem] text-left font-medium">
                  <Link
                    href={`/clinic/patients/${encodeURIComponent(r.id)}`}
                    className="text-blue-700 underline dark:text-blue-300"
                  >
                    {r.name}
                  </Link>
                  <span className="block text-xs font-normal whitespace-nowrap text-slate-600 dark:text-slate-400">
                    {r.birthDate ? `born ${r.birthDate} · ` : ""}
                    <span data-status={r.status}>{STATUS_LABELS[r.status]}</span>
                  </span>
                  {r.targetGroup !== "standard" && (
                    <span
                      className="block text-xs font-normal text-slate-700 dark:text-slate-300"
                      data-group={r.targetGroup}
                    >
                      Goals: {TARGET_PRESETS[r.targetGroup].label}
                    </span>
                  )}
                </th>
                <td data-label={labelOf("flags")}>
                  <Flags flags={r.flags} thresholds={triageFor(r.targetGroup, thresholds)} unit={unit} />
                </td>
                <td data-col="tags" data-label={labelOf("tags")}>
                  {r.tags && r.tags.length > 0 ? (
                    <ul className="flex flex-wrap gap-1">
                      {r.tags.map((t) => (
                        <li
                          key={t.id}
                          data-tag={t.id}
                          className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-amber-950 dark:bg-amber-900 dark:text-amber-50"
                        >
                          {t.name}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <Blank label="no tags" />
                  )}
                </td>
                <td data-col="reviewed" data-label={labelOf("reviewed")} className="text-xs">
                  {r.lastReview ? (
                    <span data-testid="row-review">
                      <span className="whitespace-nowrap">
                        {r.lastReview.reviewedAt.slice(0, 10)} {r.lastReview.reviewedAt.slice(11, 16)} UTC
                      </span>{" "}
                      by {r.lastReview.reviewerName ?? "a former clinician"}
                      <span className="block whitespace-nowrap text-slate-600 dark:text-slate-400">
                        {r.lastReview.periodStart} to {r.lastReview.periodEnd}
                      </span>
                    </span>
                  ) : (
                    <Blank label="never reviewed" />
                  )}
                </td>
                <td className={num} data-col="veryLow" data-label={labelOf("veryLow")}>
                  <Judged
                    row={r}
                    metric="timeBelow54"
                    value={t?.veryLow}
                    thresholds={[thresholds.veryLowPercent]}
                  />
                </td>
                <td className={num} data-col="low" data-label={labelOf("low")}>
                  <Judged
                    row={r}
                    metric="timeBelow70"
                    value={t ? t.veryLow + t.low : null}
                    thresholds={[thresholds.lowPercent]}
                  />
                </td>
                <td className={num} data-col="inRange" data-label={labelOf("inRange")}>
                  <Judged
                    row={r}
                    metric="timeInRange"
                    value={t?.inRange}
                    thresholds={[thresholds.inRangeBelowPercent]}
                  />
                </td>
                <td className={num} data-col="high" data-label={labelOf("high")}>
                  <Judged
                    row={r}
                    metric="timeAbove180"
                    value={t ? t.high + t.veryHigh : null}
                    thresholds={[thresholds.highPercent]}
                  />
                </td>
                <td className={num} data-col="tightRange" data-label={labelOf("tightRange")}>
                  <Value text={pct(r.metrics?.timeInTightRange)} />
                </td>
                <td className={num} data-col="veryLowEpisodes" data-label={labelOf("veryLowEpisodes")}>
                  <VeryLowEpisodes row={r} />
                </td>
                <td className={num} data-col="change" data-label={labelOf("change")}>
                  <Change row={r} dropPoints={thresholds.inRangeDropPoints} />
                </td>
                <td className={num} data-col="mean" data-label={labelOf("mean")}>
                  <Value text={r.metrics?.mean != null ? formatMgdlIn(r.metrics.mean, unit) : null} />
                </td>
                <td className={num} data-col="gmi" data-label={labelOf("gmi")}>
                  <Value text={pct(r.metrics?.gmi)} />
                </td>
                <td className={num} data-col="cv" data-label={labelOf("cv")}>
                  <Judged row={r} metric="cv" value={r.metrics?.cv} />
                </td>
                <td className={num} data-col="gri" data-label={labelOf("gri")}>
                  <Value text={r.metrics?.gri != null ? r.metrics.gri.toFixed(1) : null} />
                </td>
                <td className={num} data-col="sensor" data-label={labelOf("sensor")}>
                  <Value text={pct(r.metrics?.sensorActivePercent, [thresholds.sensorBelowPercent])} />
                </td>
                <td className="whitespace-nowrap" data-col="risk" data-label={labelOf("risk")}>
                  <Risk row={r} />
                </td>
                <td className={num} data-col="lastData" data-label={labelOf("lastData")}>
                  <LastData row={r} />
                </td>
                <td className="whitespace-nowrap" data-label="Reports">
                  {SHARES.has(r.status) ? (
                    <Link
                      href={`/clinic/patients/${encodeURIComponent(r.id)}/agp`}
                      className="text-blue-700 underline dark:text-blue-300"
                    >
                      AGP<span className="sr-only"> report of {r.name}</span>
                    </Link>
                  ) : (
                    <Blank label="no report: not sharing data" />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </RecordTable>
      {shown.length === 0 && <p data-testid="population-empty">No patient matches these filters.</p>}
      {drawn.length < shown.length && (
        <div className="flex flex-wrap gap-3">
          <button type="button" onClick={() => setLimit((n) => n + PAGE)} className={secondaryButtonClass}>
            Show {Math.min(PAGE, shown.length - drawn.length)} more
          </button>
          <button type="button" onClick={() => setLimit(shown.length)} className={secondaryButtonClass}>
            Show all {shown.length}
          </button>
        </div>
      )}
    </div>
  );
}
