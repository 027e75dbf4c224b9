import { formatGlucoseNumber, pointText } from "@/lib/cgm/glucose-text";
import { type GlucoseUnit, roundForUnit } from "@/lib/cgm/units";
import { sentinelValue } from "@/lib/cgm/values";
import type { TracePoint } from "./points";

/**
 * The trace as a table, for people who cannot see the chart: one row per hour of the patient's
 * own clock for traces up to a day, one per calendar day (displayTime) beyond. Lowest and highest
 * come from every reading (so a LOW is never averaged away); the mean uses the values as drawn,
 * with sentinels at their edge values, as the metrics do. A mean that comes out at an edge value (39 or
 * 401 mg/dL, 2.2 or 22.3 mmol/L) reads LOW or HIGH: only LOW (HIGH) readings pull it there, and an
 * edge value is never shown as a number.
 */
export interface TraceTableRow {
  /** "2026-11-22 14:00" (hourly) or "2026-11-22" (daily), in the patient's displayTime. */
  label: string;
  readings: number;
  lowest: string;
  mean: string;
  highest: string;
}

export function traceTable(
  points: readonly TracePoint[],
  unit: GlucoseUnit,
  by: "hour" | "day",
): TraceTableRow[] {
  const groups = new Map<string, TracePoint[]>();
  for (const p of points) {
    const key =
      by === "hour" ? `${p.display.slice(0, 10)} ${p.display.slice(11, 13)}:00` : p.display.slice(0, 10);
    const group = groups.get(key);
    if (group) group.push(p);
    else groups.set(key, [p]);
  }
  const show = (p: TracePoint) => pointText(p, unit);
  const rows: TraceTableRow[] = [];
  // Map keeps insertion order, which is systemTime order: a repeated hour on the day clocks go back
  // shows as one row holding both runs of readings, the hour the patient saw twice.
  for (const [label, group] of groups) {
    let lowest = group[0]!;
    let highest = group[0]!;
    let sum = 0;
    for (const p of group) {
      // In mmol/L a real 40 mg/dL ties with LOW at 2.2; the LOW is the lower of the two.
      if (p.value < lowest.value || (p.value === lowest.value && p.sentinel === "low")) lowest = p;
      if (p.value > highest.value || (p.value === highest.value && p.sentinel === "high")) highest = p;
      sum += p.value;
    }
    rows.push({
      label,
      readings: group.length,
      lowest: show(lowest),
      mean: meanText(sum / group.length, group, unit),
      highest: show(highest),
    });
  }
  return rows;
}

/**
 * LOW readings only average to 39 exactly, and many LOWs with a few 40s to 39.4, which rounds to 39
 * too: shown as a number, either would read as the sentinel. A mean that rounds to an edge value
 * is beyond the measuring range, so it is written as the readings beyond it are.
 */
function meanText(mean: number, group: readonly TracePoint[], unit: GlucoseUnit): string {
  const shown = roundForUnit(mean, unit);
  // The LOW on the chart must be in the group: in mmol/L a real 40 mg/dL is 2.2 too.
  if (shown <= sentinelValue("low", unit) && group.some((p) => p.sentinel === "low")) return "LOW";
  if (shown >= sentinelValue("high", unit) && group.some((p) => p.sentinel === "high")) return "HIGH";
  return formatGlucoseNumber(mean, unit);
}
