import { parseTargetGroup, type TargetGroup } from "@/lib/metrics/targets";
import { checkPatientDays } from "../period/patient-days";
import {
  type PeriodRequest,
  parsePeriodRequest,
  REPORT_DEFAULT_DAYS,
  REPORT_MAX_DAYS,
} from "../period/period";

/**
 * The AGP page's query: the period (`days`, or `startDate`/`endDate` as the service writes them,
 * or the date form's `startDay`/`endDay`, days on the receiver's clock) and the population
 * whose targets the metrics panel shows (`targets`: a one-off look at another group's goals;
 * without it, the patient's group as the view resolves it, lib/preferences/target-group.ts).
 */
export interface AgpQuery {
  period: PeriodRequest;
  /** The group the query asks for; null: the view's own (the patient's or the clinic's choice). */
  population: TargetGroup | null;
}

/** No default group: a link without `targets` shows the patient's own, whatever it is. */
export const AGP_DEFAULTS = { days: String(REPORT_DEFAULT_DAYS) } as const;

export function parseAgpQuery(
  get: (name: string) => string | undefined,
): { ok: true; value: AgpQuery } | { ok: false; message: string } {
  const asked = get("targets");
  const targets = asked === undefined ? null : parseTargetGroup(asked);
  if (asked !== undefined && targets === null) {
    return { ok: false, message: 'targets must be "standard", "olderHighRisk" or "pregnancy"' };
  }
  const startDay = get("startDay");
  const endDay = get("endDay");
  if (startDay !== undefined || endDay !== undefined) {
    if (!startDay || !endDay) return { ok: false, message: "give both a first and a last day" };
    if (startDay > endDay) return { ok: false, message: "the first day must not be after the last day" };
    const checked = checkPatientDays(startDay, endDay, REPORT_MAX_DAYS);
    if (!checked.ok) return checked;
    return {
      ok: true,
      value: { period: { kind: "patientDays", patientDays: checked.days }, population: targets },
    };
  }
  const period = parsePeriodRequest(get);
  if (!period.ok) return period;
  return { ok: true, value: { period: period.value, population: targets } };
}

/** The query that asks for `query` again: for links that change one choice and for the PDF. */
export function agpQueryParams(query: AgpQuery): Record<string, string> {
  const out: Record<string, string> = query.population ? { targets: query.population } : {};
  if (query.period.kind === "days") out.days = String(query.period.days);
  else if (query.period.kind === "patientDays") {
    out.startDay = query.period.patientDays.firstDay;
    out.endDay = query.period.patientDays.lastDay;
  } else {
    out.startDate = query.period.period.startDate;
    out.endDate = query.period.period.endDate;
  }
  return out;
}
