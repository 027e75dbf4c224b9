"use client";

import { useEffect, useRef, useState } from "react";
import type { GlucoseUnit } from "@/lib/cgm/units";

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

/**
 * Unit and target range. A plain form POST (it works without JavaScript); with JavaScript the
 * same schema as the server's checks it first, so a mistake is explained where it was made.
 */
export function PreferencesForm({
  unitChoice,
  unit,
  dataUnit,
  target,
  returnTo,
}: {
  unitChoice: GlucoseUnit | null;
  unit: GlucoseUnit;
  dataUnit: GlucoseUnit;
  target: { low: number; high: number };
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
  return (
    <form
      method="post"
      action="/api/preferences"
      className="grid gap-3 sm:grid-cols-[auto_auto_auto_auto] sm:items-end"
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
      <label className="flex flex-col text-sm font-medium">
        Unit
        <select
          name="unit"
          defaultValue={unitChoice ?? "auto"}
          className="mt-1 rounded-md border border-slate-400 bg-white px-2 py-1.5 dark:border-slate-600 dark:bg-slate-950"
        >
          <option value="auto">As my data ({dataUnit})</option>
          <option value="mg/dL">mg/dL</option>
          <option value="mmol/L">mmol/L</option>
        </select>
      </label>
      <label className="flex flex-col text-sm font-medium">
        Target low ({unit})
        <input
          name="targetLow"
          type="number"
          step={step}
          defaultValue={target.low}
          required
          aria-describedby="target-shading-note"
          className="mt-1 w-28 rounded-md border border-slate-400 bg-white px-2 py-1.5 dark:border-slate-600 dark:bg-slate-950"
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
          aria-describedby="target-shading-note"
          className="mt-1 w-28 rounded-md border border-slate-400 bg-white px-2 py-1.5 dark:border-slate-600 dark:bg-slate-950"
        />
      </label>
      <button
        type="submit"
        className="rounded-lg bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        Save
      </button>
      <p id="target-shading-note" className="text-sm text-slate-700 sm:col-span-4 dark:text-slate-300">
        The target range shades the glucose trace only. Time in ranges and the goals always use the consensus
        ranges, so changing it does not change those numbers.
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-800 sm:col-span-4 dark:text-red-300">
          {error}
        </p>
      )}
    </form>
  );
}
