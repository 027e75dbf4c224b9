"use client";

import { useEffect, useRef, useState } from "react";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { TARGET_GROUPS } from "@/lib/metrics/targets";
import {
  clinicChoiceSentence,
  type ResolvedTargetGroup,
  targetGroupLabel,
} from "@/lib/preferences/target-group";

type Check = (form: FormData) => string | null;

// The schema (and zod with it) is fetched once the page is idle, not in the bundle that draws the
// chart. A save before it arrived is simply checked by the server, which answers the same message.
async function loadCheck(): Promise<Check> {
  const [{ preferencesFormSchema }, { zodMessage }] = await Promise.all([
    import("@/lib/preferences/schema"),
    import("@/lib/cgm/schemas"),
  ]);
  return (form) => {
    const parsed = preferencesFormSchema.safeParse(Object.fromEntries(form));
    return parsed.success ? null : zodMessage(parsed.error.issues);
  };
}

const fieldClass =
  "mt-1 rounded-md border border-slate-400 bg-white px-2 py-1.5 dark:border-slate-600 dark:bg-slate-950";

/**
 * The goals the patient's data is judged by, the unit, and the target band (which only shades the
 * trace: a display setting, kept apart from the goals and labelled so). A plain form POST (it works
 * without JavaScript); with JavaScript the same schema as the server's checks it first, so a mistake
 * is explained where it was made.
 */
export function PreferencesForm({
  unitChoice,
  unit,
  dataUnit,
  target,
  goals,
  returnTo,
}: {
  unitChoice: GlucoseUnit | null;
  unit: GlucoseUnit;
  dataUnit: GlucoseUnit;
  target: { low: number; high: number };
  /** The patient's own choice of goals and their clinic's, if one set them. */
  goals: ResolvedTargetGroup;
  returnTo: string;
}) {
  const [error, setError] = useState<string | null>(null);
  const check = useRef<Check | null>(null);
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 200));
    idle(() => {
      loadCheck().then((c) => {
        check.current = c;
      });
    });
  }, []);
  const step = unit === "mg/dL" ? "1" : "0.1";
  const notChosen = goals.clinic
    ? `As my clinic set them: ${targetGroupLabel(goals.clinic.group)}`
    : `Not chosen: ${targetGroupLabel("standard")} (the standard goals)`;
  return (
    <form
      method="post"
      action="/api/preferences"
      className="space-y-4"
      onSubmit={(e) => {
        const message = check.current?.(new FormData(e.currentTarget)) ?? null;
        if (message) {
          e.preventDefault();
          setError(message);
        }
      }}
    >
      <input type="hidden" name="returnTo" value={returnTo} />
      <input type="hidden" name="inputUnit" value={unit} />
      <div>
        <label className="flex flex-col text-sm font-medium sm:max-w-md">
          Goals for
          <select
            name="targetGroup"
            defaultValue={goals.own ?? ""}
            aria-describedby="goals-help"
            className={fieldClass}
          >
            <option value="">{notChosen}</option>
            {TARGET_GROUPS.map((g) => (
              <option key={g} value={g}>
                {targetGroupLabel(g)}
              </option>
            ))}
          </select>
        </label>
        <p id="goals-help" className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          The consensus goals your time in ranges is judged by.
        </p>
        {goals.clinic && (
          <p
            className="mt-2 rounded-md border border-blue-300 bg-blue-50 px-3 py-2 text-sm font-medium text-blue-950 sm:max-w-2xl dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100"
            data-testid="clinic-goals-notice"
          >
            {clinicChoiceSentence(goals.clinic, goals.own)}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm font-medium">
          Unit
          <select name="unit" defaultValue={unitChoice ?? "auto"} className={fieldClass}>
            <option value="auto">As my data ({dataUnit})</option>
            <option value="mg/dL">mg/dL</option>
            <option value="mmol/L">mmol/L</option>
          </select>
        </label>
        <fieldset className="rounded-md border border-slate-300 px-3 pb-2 dark:border-slate-700">
          <legend className="px-1 text-sm font-medium">Target band (shading only)</legend>
          <div className="flex flex-wrap gap-3">
            <label className="flex flex-col text-sm font-medium">
              Target low ({unit})
              <input
                name="targetLow"
                type="number"
                step={step}
                defaultValue={target.low}
                required
                className={`${fieldClass} w-28`}
              />
            </label>
            <label className="flex flex-col text-sm font-medium">
              Target high ({unit})
              <input
                name="targetHigh"
                type="number"
                step={step}
                defaultValue={target.high}
                required
                className={`${fieldClass} w-28`}
              />
            </label>
          </div>
        </fieldset>
        <button
          type="submit"
          className="rounded-lg bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          Save
        </button>
      </div>
      <p id="target-shading-note" className="text-sm text-slate-700 dark:text-slate-300">
        The target range shades the glucose trace only. Time in ranges and the goals always use the ranges of
        the goals chosen above, so changing it does not change those numbers.
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-800 dark:text-red-300">
          {error}
        </p>
      )}
    </form>
  );
}
