import { inputClass, primaryButtonClass } from "@/components/clinic/ClinicForm";
import { Panel } from "@/components/patient/Panel";
import { TARGET_GROUPS } from "@/lib/metrics/targets";
import { type ResolvedTargetGroup, targetGroupLabel } from "@/lib/preferences/target-group";

/**
 * The clinic's choice of the goals it judges a patient by (a plain form POST): used by the
 * clinic's pages of the patient, their AGP and PDF, and the population view's flags; the patient
 * is shown it. "" hands the choice back to the patient.
 */
export function TargetGroupForm({
  patientId,
  patientName,
  goals,
  saved,
}: {
  patientId: string;
  patientName: string;
  goals: ResolvedTargetGroup;
  saved: boolean;
}) {
  const clinicChoice = goals.source === "clinic" ? goals.group : "";
  const own = goals.own ? targetGroupLabel(goals.own) : null;
  return (
    <div id="goals" className="scroll-mt-4 print:hidden">
      <Panel title="Goals" id="goals-panel">
        <p data-testid="clinic-goals">
          This clinic judges {patientName} by the goals for <strong>{targetGroupLabel(goals.group)}</strong>
          {goals.source === "clinic"
            ? ", as the clinic set them."
            : goals.source === "patient"
              ? ", as the patient chose them."
              : ": the standard goals, as nobody chose others."}{" "}
          The patient&apos;s own choice: {own ?? "none"}.
        </p>
        {saved && (
          <p role="status" className="font-medium text-emerald-800 dark:text-emerald-300">
            Saved. The population view&apos;s flags and these pages now use these goals.
          </p>
        )}
        <form
          method="post"
          action={`/api/clinic/patients/${encodeURIComponent(patientId)}/target-group`}
          className="flex flex-wrap items-end gap-3"
        >
          <div>
            <label htmlFor="targetGroup" className="block font-medium">
              Goals for
            </label>
            <select id="targetGroup" name="targetGroup" defaultValue={clinicChoice} className={inputClass}>
              <option value="">The patient&apos;s own choice ({own ?? targetGroupLabel("standard")})</option>
              {TARGET_GROUPS.map((g) => (
                <option key={g} value={g}>
                  {targetGroupLabel(g)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={primaryButtonClass}>
            Save goals
          </button>
        </form>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Used by this clinic&apos;s dashboard, AGP report and PDF of the patient and by the population
          view&apos;s flags; the patient is told what the clinic set. The target band on the trace is the
          patient&apos;s display setting (shading only).
        </p>
      </Panel>
    </div>
  );
}
