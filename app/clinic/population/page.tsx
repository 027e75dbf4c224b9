import type { Metadata } from "next";
import Link from "next/link";
import { forbidden, notFound, redirect } from "next/navigation";
import {
  FormError,
  inputClass,
  linkClass,
  primaryButtonClass,
  secondaryButtonClass,
} from "@/components/clinic/ClinicForm";
import { ClinicFrame, DemoBadge } from "@/components/clinic/ClinicFrame";
import { PopulationTable } from "@/components/clinic/PopulationTable";
import { TagsPanel } from "@/components/clinic/TagsPanel";
import { Panel } from "@/components/patient/Panel";
import { currentUserId } from "@/lib/auth";
import { GLUCOSE_UNITS } from "@/lib/cgm/units";
import { clinicsOf } from "@/lib/clinic/domain/clinics";
import { tagsOf } from "@/lib/clinic/domain/tags";
import {
  groupFlagLabels,
  THRESHOLD_FIELDS,
  type TriageThresholds,
  thresholdMessage,
} from "@/lib/clinic/domain/triage";
import { recordAudit } from "@/lib/clinic/security/audit";
import { populationOf } from "@/lib/clinic/views/population";
import { annotatedPopulation } from "@/lib/clinic/views/population-annotations";
import { POPULATION_SORT_KEYS, type PopulationSort } from "@/lib/clinic/views/population-model";
import { NotFound } from "@/lib/errors";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { preferencesOf } from "@/lib/preferences/store";
import { episodeRule } from "@/lib/reports/episodes-view";

export const metadata: Metadata = { title: "Population" };

const UNIT_BUTTON =
  "rounded-lg border px-3 py-1.5 font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700";
const UNIT_PRESSED =
  "border-slate-800 bg-slate-800 text-white dark:border-slate-200 dark:bg-slate-200 dark:text-slate-900";
const UNIT_NOT_PRESSED = "border-slate-400 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800";

const KEYS = Object.keys(THRESHOLD_FIELDS) as (keyof TriageThresholds)[];
const isKey = (s: string | undefined): s is keyof TriageThresholds =>
  KEYS.includes(s as keyof TriageThresholds);

/**
 * The clinic's population (triage) view: every patient's last 14 days, flagged against the
 * clinic's thresholds, for members of that clinic only: another clinic's id is a 404 (whether it
 * exists is not told), a patient's session a 403 (app/clinic/forbidden.tsx).
 */
export default async function PopulationPage({
  searchParams,
}: {
  searchParams: Promise<{
    clinic?: string;
    error?: string;
    saved?: string;
    tag?: string;
    sort?: string;
    tags?: string;
  }>;
}) {
  const userId = await currentUserId();
  if (!userId) redirect("/clinic/sign-in");
  const memberships = await clinicsOf(userId);
  if (memberships.length === 0) forbidden();
  const params = await searchParams;
  const clinic = params.clinic ? memberships.find((c) => c.clinicId === params.clinic) : memberships[0];
  if (!clinic) notFound();
  const isAdmin = clinic.role === "admin";
  const [{ rows: allRows, thresholds }, preferences, clinicTags] = await Promise.all([
    populationOf(clinic.clinicId),
    preferencesOf(userId),
    tagsOf(clinic.clinicId),
  ]);
  // A tag of another clinic (or none) is a 404, as another clinic's id is: never used, never told apart.
  const { rows, tag } = await annotatedPopulation(clinic.clinicId, allRows, params.tag || undefined).catch(
    (e) => {
      if (e instanceof NotFound) notFound();
      throw e;
    },
  );
  const sort = POPULATION_SORT_KEYS.find((k) => k === params.sort) as PopulationSort | undefined;
  // Every patient's numbers are on this page, so each time it is served goes into the log: one
  // entry about the whole clinic, not one per patient (a list of hundreds would drown the rest).
  await recordAudit({
    clinicId: clinic.clinicId,
    actorUserId: userId,
    clinicPatientId: null,
    action: "view.population",
    detail: `${rows.length} patient${rows.length === 1 ? "" : "s"}`,
  });
  // The clinician's own choice; a population mixes the patients' units, so mg/dL until one is made.
  const unit = preferences.unit ?? "mg/dL";
  const here = `/clinic/population?clinic=${encodeURIComponent(clinic.clinicId)}`;
  const error = isKey(params.error)
    ? thresholdMessage(params.error, unit)
    : params.error
      ? "Check the thresholds."
      : null;
  const saved =
    params.saved === "reset"
      ? "The consensus thresholds are back."
      : params.saved
        ? "Thresholds saved."
        : null;
  const { custom, updatedAt: _, ...values } = thresholds;

  return (
    <ClinicFrame
      title={`${clinic.name}: population`}
      signedIn
      wide="full"
      badge={clinic.demo ? <DemoBadge /> : undefined}
    >
      <p className="flex flex-wrap gap-x-4 gap-y-1">
        <Link href={`/clinic?clinic=${encodeURIComponent(clinic.clinicId)}`} className={linkClass}>
          Back to the clinic
        </Link>
        <Link
          href={`/clinic/clinic-day?clinic=${encodeURIComponent(clinic.clinicId)}`}
          className={linkClass}
          data-testid="clinic-day-link"
        >
          Clinic day: the AGP reports of chosen patients in one zip
        </Link>
      </p>
      <Panel title="Patients, last 14 days" id="population">
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Each patient&apos;s last 14 calendar days on their own clock, today included so far, from the data
          synced from the service. Time in ranges, mean ({unit}), GMI, CV and GRI follow the international
          consensus; sensor use counts the readings present against one every 5 minutes. The change of time in
          range compares with the 14 days before. Level 2 lows are the episodes of the 2023 consensus,{" "}
          {episodeRule("hypoLevel2", unit)}, counted as its research reference (iglu) counts them, per 7 days
          of sensor time; the sync counts them, and a dash means not yet for these days. The hypoglycemia risk
          is the service&apos;s own estimate, refreshed every few hours.
        </p>
        <form
          method="post"
          action="/api/preferences/unit"
          className="flex flex-wrap items-center gap-2 text-sm"
        >
          <input type="hidden" name="returnTo" value={here} />
          <span id="population-unit" className="font-medium">
            Glucose in
          </span>
          {/* biome-ignore lint/a11y/useSemanticElements: two submit buttons, one pressed, are the unit switch (a radio group would need a second step to apply). */}
          <span role="group" aria-labelledby="population-unit" className="inline-flex gap-1">
            {GLUCOSE_UNITS.map((u) => (
              <button
                key={u}
                type="submit"
                name="unit"
                value={u}
                aria-pressed={u === unit}
                className={`${UNIT_BUTTON} ${u === unit ? UNIT_PRESSED : UNIT_NOT_PRESSED}`}
              >
                {u}
              </button>
            ))}
          </span>
        </form>
        <form
          method="get"
          action="/clinic/population"
          className="flex flex-wrap items-end gap-3 text-sm"
          data-testid="tag-filter"
        >
          <input type="hidden" name="clinic" value={clinic.clinicId} />
          <div>
            <label htmlFor="population-tag" className="block font-medium">
              Tag
            </label>
            <select id="population-tag" name="tag" defaultValue={tag?.id ?? ""} className={inputClass}>
              <option value="">Every patient</option>
              {clinicTags.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="population-sort" className="block font-medium">
              Order
            </label>
            <select id="population-sort" name="sort" defaultValue={sort ?? "flags"} className={inputClass}>
              <option value="flags">Most flags first</option>
              <option value="name">By name</option>
              <option value="tags">By tag</option>
              <option value="reviewed">Longest since review first</option>
            </select>
          </div>
          <button type="submit" className={secondaryButtonClass}>
            Show
          </button>
          {tag && (
            <Link href={here} className={linkClass}>
              Show every patient
            </Link>
          )}
        </form>
        {tag && (
          <p role="status" data-testid="tag-filtered">
            Patients tagged <strong>{tag.name}</strong>: {rows.length}.
          </p>
        )}
        {rows.length === 0 ? (
          <p data-testid="population-none">
            {tag ? "No patient has this tag." : "No patients yet: invite them from the clinic page."}
          </p>
        ) : (
          // Keyed by the order asked for: a new ?sort= draws the table anew in that order.
          <PopulationTable
            key={sort ?? "flags"}
            rows={rows}
            thresholds={values}
            unit={unit}
            initialSort={sort}
          />
        )}
      </Panel>
      <TagsPanel clinicId={clinic.clinicId} tags={clinicTags} status={params.tags} here={here} />
      {/* The form's answers return to #thresholds. */}
      <div id="thresholds" className="scroll-mt-4">
        <Panel title="Triage thresholds" id="triage-thresholds">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {custom
              ? "This clinic's own thresholds."
              : "The consensus targets (Battelino et al., Diabetes Care 2019) and a fall of 15 points of time in range."}
          </p>
          <div className="text-sm text-slate-700 dark:text-slate-300" data-testid="group-thresholds">
            <p>
              These thresholds judge patients with the standard goals ({TARGET_PRESETS.standard.label}). A
              patient whose goals are set to another group, by the clinic on the patient&apos;s page or by the
              patient, is flagged where they miss that group&apos;s consensus goals instead; sensor use and
              the fall of time in range use these thresholds for every patient.
            </p>
            <ul className="list-disc pl-5">
              {(["pregnancy", "olderHighRisk"] as const).map((g) => (
                <li key={g}>
                  {TARGET_PRESETS[g].label}: {groupFlagLabels(g, values, unit).join("; ")}
                </li>
              ))}
            </ul>
          </div>
          {saved && (
            <p
              role="status"
              data-testid="thresholds-saved"
              className="font-medium text-emerald-800 dark:text-emerald-300"
            >
              {saved}
            </p>
          )}
          {isAdmin ? (
            <form method="post" action="/api/clinic/triage" className="space-y-3" noValidate={false}>
              <input type="hidden" name="clinicId" value={clinic.clinicId} />
              <FormError message={error} />
              <div className="grid gap-3 sm:grid-cols-2">
                {KEYS.map((k) => {
                  const f = THRESHOLD_FIELDS[k];
                  const invalid = params.error === k;
                  return (
                    <div key={k}>
                      <label htmlFor={k} className="block font-medium">
                        {f.label(unit)}: flag {f.comparison} ({f.unit === "%" ? "%" : "percentage points"})
                      </label>
                      <input
                        id={k}
                        name={k}
                        type="number"
                        inputMode="decimal"
                        step="0.1"
                        min={f.min}
                        max={f.max}
                        required
                        defaultValue={values[k]}
                        aria-invalid={invalid || undefined}
                        aria-describedby={invalid ? "form-error" : undefined}
                        className={inputClass}
                      />
                    </div>
                  );
                })}
              </div>
              <div className="flex flex-wrap gap-3">
                <button type="submit" className={primaryButtonClass}>
                  Save thresholds
                </button>
                {custom && (
                  <button
                    type="submit"
                    name="action"
                    value="reset"
                    formNoValidate
                    className={secondaryButtonClass}
                  >
                    Use the consensus thresholds
                  </button>
                )}
              </div>
            </form>
          ) : (
            <>
              <ul className="list-disc pl-5" data-testid="thresholds">
                {KEYS.map((k) => (
                  <li key={k}>
                    {THRESHOLD_FIELDS[k].label(unit)}: flagged {THRESHOLD_FIELDS[k].comparison} {values[k]}{" "}
                    {THRESHOLD_FIELDS[k].unit === "%" ? "%" : "points"}
                  </li>
                ))}
              </ul>
              <p className="text-sm">Only the clinic&apos;s administrators can change them.</p>
            </>
          )}
        </Panel>
      </div>
    </ClinicFrame>
  );
}
