"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import type { GlucoseUnit } from "@/lib/cgm/units";
import {
  BOUND_FIELDS,
  BOUND_LABELS,
  checkRows,
  DAY_NIGHT_WINDOWS,
  type EditorIssue,
  rowsFromWindows,
  WHOLE_DAY_WINDOWS,
  type WindowRow,
} from "@/lib/reports/statistics-by-window/windows";

type Row = WindowRow & { key: number };

const isBound = (field: string) => (BOUND_FIELDS as readonly string[]).includes(field);

// The service's words name no input for a bad Time; start and end would read alike without this.
const TIME_LABELS: Partial<Record<NonNullable<EditorIssue["field"]>, string>> = {
  startTime: "Start",
  endTime: "End",
};
const say = (issue: EditorIssue) => {
  const label = issue.field && TIME_LABELS[issue.field];
  return label ? `${label}: ${issue.message}` : issue.message;
};

const INPUT =
  "mt-1 w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 aria-[invalid=true]:border-red-700 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-700 dark:border-slate-600 dark:bg-slate-950 dark:aria-[invalid=true]:border-red-400 dark:aria-[invalid=true]:ring-red-400";
const BUTTON =
  "rounded-lg border border-slate-400 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800 dark:focus-visible:outline-blue-400";
const ERROR = "text-sm text-red-800 dark:text-red-300";

/**
 * The windows editor. Before anything is sent, the rows are turned into the statistics body the
 * service would get and judged by the service's own request schemas (lib/reports/statistics-by-window/windows
 * checkRows): every problem is shown beside the row it concerns and in a summary, and nothing is
 * sent while one remains. The save route checks the same way again.
 */
export function StatisticsEditor({ initialRows, unit }: { initialRows: WindowRow[]; unit: GlucoseUnit }) {
  const router = useRouter();
  const id = useId();
  const nextKey = useRef(initialRows.length);
  const summaryRef = useRef<HTMLDivElement>(null);
  const [rows, setRows] = useState<Row[]>(() => initialRows.map((r, key) => ({ ...r, key })));
  // null until the first attempt to save: problems are not shouted while the patient is still typing.
  const [issues, setIssues] = useState<EditorIssue[] | null>(null);
  const [status, setStatus] = useState<
    { kind: "idle" | "saving" | "saved" } | { kind: "error"; message: string }
  >({ kind: "idle" });

  // Each refused save moves focus to the summary, once it is drawn (it may not exist before).
  const [refused, setRefused] = useState(0);
  useEffect(() => {
    if (refused > 0) summaryRef.current?.focus();
  }, [refused]);

  const keyed = (list: WindowRow[]) => list.map((r) => ({ ...r, key: nextKey.current++ }));
  const change = (next: Row[]) => {
    setRows(next);
    if (status.kind !== "saving") setStatus({ kind: "idle" });
    if (issues !== null) setIssues(checkRows(next).issues);
  };
  const update = (key: number, field: keyof WindowRow, value: string) =>
    change(rows.map((r) => (r.key === key ? { ...r, [field]: value } : r)));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const check = checkRows(rows);
    setIssues(check.issues);
    if (!check.body) {
      setStatus({ kind: "idle" });
      setRefused((n) => n + 1);
      return;
    }
    setStatus({ kind: "saving" });
    try {
      const res = await fetch("/api/reports/statistics-windows", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ unit, targetRanges: check.body.targetRanges }),
      });
      if (!res.ok) {
        const body = await res.json().catch(() => ({}));
        setStatus({ kind: "error", message: body.message ?? `Saving failed (status ${res.status}).` });
        return;
      }
      setStatus({ kind: "saved" });
      router.refresh();
    } catch {
      setStatus({ kind: "error", message: "The dashboard could not be reached; try again." });
    }
  };

  const listIssues = (issues ?? []).filter((i) => i.row === null);
  const rowIssues = (row: number) => (issues ?? []).filter((i) => i.row === row);
  const listErrorId = `${id}-list-error`;
  const windowLabel = (r: Row, i: number) =>
    r.name.trim() ? `Window ${i + 1} (${r.name.trim()})` : `Window ${i + 1}`;

  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-describedby={`${id}-help`}>
      <p id={`${id}-help`} className="text-sm text-slate-700 dark:text-slate-300">
        Together the windows must cover all 24 hours without overlapping; a window may run past midnight
        (22:00 to 06:00). A window whose start equals its end covers the whole day. In each, urgent low must
        be below low, and low below high. Bounds are in {unit}.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium text-slate-700 dark:text-slate-300">Start from</span>
        <button
          type="button"
          className={BUTTON}
          onClick={() => change(keyed(rowsFromWindows(DAY_NIGHT_WINDOWS, unit)))}
        >
          Day and night
        </button>
        <button
          type="button"
          className={BUTTON}
          onClick={() => change(keyed(rowsFromWindows(WHOLE_DAY_WINDOWS, unit)))}
        >
          Whole day
        </button>
      </div>

      {issues !== null && issues.length > 0 && (
        <div
          ref={summaryRef}
          tabIndex={-1}
          role="alert"
          data-testid="windows-errors"
          className="rounded-lg border-2 border-red-700 bg-red-50 p-3 focus:outline focus:outline-2 focus:outline-offset-2 focus:outline-red-700 dark:border-red-400 dark:bg-red-950 dark:focus:outline-red-400"
        >
          <p className="font-semibold text-red-900 dark:text-red-100">Nothing was saved. Please correct:</p>
          <ul className="mt-1 list-disc pl-5 text-sm text-red-900 dark:text-red-100">
            {issues.map((issue) => (
              <li key={`${issue.row}-${issue.field}-${issue.message}`}>
                {issue.row === null || !rows[issue.row]
                  ? ""
                  : `${windowLabel(rows[issue.row]!, issue.row)}: `}
                {say(issue)}
              </li>
            ))}
          </ul>
        </div>
      )}

      <ol className="space-y-3" aria-describedby={listIssues.length ? listErrorId : undefined}>
        {rows.map((r, i) => {
          const problems = rowIssues(i);
          const rowErrorId = `${id}-row-${r.key}-error`;
          const describedBy = (timeField: boolean) =>
            [problems.length ? rowErrorId : null, timeField && listIssues.length ? listErrorId : null]
              .filter(Boolean)
              .join(" ") || undefined;
          // A problem with the bounds (their order) concerns all three; others name their input.
          const invalid = (field: NonNullable<EditorIssue["field"]>) =>
            problems.some((p) => p.field === field || (p.field === undefined && isBound(field))) || undefined;
          const fieldId = (f: string) => `${id}-${r.key}-${f}`;
          return (
            <li key={r.key} data-testid="window-row">
              <fieldset className="rounded-lg border border-slate-300 p-3 dark:border-slate-700">
                <legend className="px-1 text-sm font-semibold">Window {i + 1}</legend>
                <div className="grid grid-cols-6 gap-3 sm:grid-cols-[minmax(8rem,2fr)_repeat(2,minmax(6.5rem,1fr))_repeat(3,minmax(5.5rem,1fr))_auto] sm:items-end">
                  <label htmlFor={fieldId("name")} className="col-span-6 text-sm font-medium sm:col-span-1">
                    Name
                    <input
                      id={fieldId("name")}
                      type="text"
                      value={r.name}
                      maxLength={80}
                      onChange={(e) => update(r.key, "name", e.target.value)}
                      aria-invalid={invalid("name")}
                      aria-describedby={describedBy(false)}
                      className={INPUT}
                    />
                  </label>
                  {(["startTime", "endTime"] as const).map((f) => (
                    <label
                      key={f}
                      htmlFor={fieldId(f)}
                      className="col-span-3 text-sm font-medium sm:col-span-1"
                    >
                      {f === "startTime" ? "Start" : "End"}
                      <input
                        id={fieldId(f)}
                        type="time"
                        step={r[f].length > 5 ? 1 : undefined}
                        value={r[f]}
                        onChange={(e) => update(r.key, f, e.target.value)}
                        aria-invalid={invalid(f)}
                        aria-describedby={describedBy(true)}
                        className={INPUT}
                      />
                    </label>
                  ))}
                  {BOUND_FIELDS.map((f) => (
                    <label
                      key={f}
                      htmlFor={fieldId(f)}
                      className="col-span-2 text-sm font-medium sm:col-span-1"
                    >
                      {BOUND_LABELS[f]} <span className="whitespace-nowrap">({unit})</span>
                      <input
                        id={fieldId(f)}
                        type="number"
                        inputMode="decimal"
                        step={unit === "mg/dL" ? 1 : 0.1}
                        value={r[f]}
                        onChange={(e) => update(r.key, f, e.target.value)}
                        aria-invalid={invalid(f)}
                        aria-describedby={describedBy(false)}
                        className={INPUT}
                      />
                    </label>
                  ))}
                  <button
                    type="button"
                    className={`${BUTTON} col-span-6 justify-self-start sm:col-span-1`}
                    onClick={() => change(rows.filter((x) => x.key !== r.key))}
                    aria-label={`Remove ${windowLabel(r, i).toLowerCase()}`}
                  >
                    Remove
                  </button>
                </div>
                {problems.length > 0 && (
                  <ul
                    id={rowErrorId}
                    className={`mt-2 list-disc pl-5 ${ERROR}`}
                    data-testid="window-row-errors"
                  >
                    {problems.map((p) => (
                      <li key={`${p.field}-${p.message}`}>{say(p)}</li>
                    ))}
                  </ul>
                )}
              </fieldset>
            </li>
          );
        })}
      </ol>
      {listIssues.length > 0 && (
        <ul id={listErrorId} className={`list-disc pl-5 ${ERROR}`} data-testid="windows-list-errors">
          {listIssues.map((p) => (
            <li key={p.message}>{p.message}</li>
          ))}
        </ul>
      )}

      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={BUTTON}
          onClick={() => {
            const last = rows.at(-1);
            change([
              ...rows,
              {
                key: nextKey.current++,
                name: "",
                startTime: "",
                endTime: "",
                urgentLow: last?.urgentLow ?? (unit === "mg/dL" ? "54" : "3"),
                low: last?.low ?? (unit === "mg/dL" ? "70" : "3.9"),
                high: last?.high ?? (unit === "mg/dL" ? "180" : "10"),
              },
            ]);
          }}
        >
          Add a window
        </button>
        <button
          type="submit"
          disabled={status.kind === "saving"}
          className="rounded-lg bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:opacity-70 dark:focus-visible:outline-blue-400"
        >
          {status.kind === "saving" ? "Saving…" : "Save windows"}
        </button>
        <p aria-live="polite" className="text-sm" data-testid="windows-status">
          {status.kind === "saved" ? "Saved. The statistics below use these windows." : ""}
        </p>
      </div>
      {status.kind === "error" && (
        <p role="alert" className={ERROR}>
          {status.message}
        </p>
      )}
    </form>
  );
}
