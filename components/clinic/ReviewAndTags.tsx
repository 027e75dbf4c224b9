import {
  inputClass,
  linkClass,
  primaryButtonClass,
  secondaryButtonClass,
} from "@/components/clinic/ClinicForm";
import { Panel } from "@/components/patient/Panel";
import type { ReviewView, TagView } from "@/lib/clinic/domain/review-types";

/** When and by whom, in words: "2026-11-27 13:40 UTC by Dr Ada, period 2026-11-14 to 2026-11-27". */
export function reviewText(review: ReviewView): string {
  return `${review.reviewedAt.slice(0, 10)} ${review.reviewedAt.slice(11, 16)} UTC by ${review.reviewerName ?? "a former clinician"}, period ${review.periodStart} to ${review.periodEnd}`;
}

/**
 * "Mark reviewed": the clinician records that they reviewed the patient's data over a period (the
 * days on the patient's calendar, the overview's by default). A plain form POST.
 */
export function ReviewPanel({
  patientId,
  last,
  period,
  saved,
}: {
  patientId: string;
  last: ReviewView | null;
  period: { start: string; end: string };
  saved: boolean;
}) {
  return (
    <div id="review" className="scroll-mt-4 print:hidden">
      <Panel title="Review" id="review-panel">
        <p data-testid="last-review">
          {last ? `Last reviewed ${reviewText(last)}.` : "Not reviewed in this clinic yet."}
        </p>
        {saved && (
          <p role="status" className="font-medium text-emerald-800 dark:text-emerald-300">
            Marked reviewed. The population view shows it.
          </p>
        )}
        <form
          method="post"
          action={`/api/clinic/patients/${encodeURIComponent(patientId)}/review`}
          className="flex flex-wrap items-end gap-3"
        >
          <div>
            <label htmlFor="periodStart" className="block font-medium">
              Period reviewed, from
            </label>
            <input
              id="periodStart"
              name="periodStart"
              type="date"
              required
              defaultValue={period.start}
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor="periodEnd" className="block font-medium">
              to (the patient&apos;s calendar)
            </label>
            <input
              id="periodEnd"
              name="periodEnd"
              type="date"
              required
              defaultValue={period.end}
              className={inputClass}
            />
          </div>
          <button type="submit" className={primaryButtonClass}>
            Mark reviewed
          </button>
        </form>
      </Panel>
    </div>
  );
}

/** The patient's tags: the clinic's tags as checkboxes, saved together (none checked clears them). */
export function PatientTagsForm({
  patientId,
  clinicId,
  tags,
  checked,
  saved,
}: {
  patientId: string;
  clinicId: string;
  tags: TagView[];
  checked: TagView[];
  saved: boolean;
}) {
  const on = new Set(checked.map((t) => t.id));
  const manage = `/clinic/population?clinic=${encodeURIComponent(clinicId)}#tags`;
  return (
    <div id="tags" className="scroll-mt-4 print:hidden">
      <Panel title="Tags" id="tags-panel">
        <p data-testid="patient-tags">
          {checked.length > 0 ? `Tagged: ${checked.map((t) => t.name).join(", ")}.` : "No tags."}
        </p>
        {saved && (
          <p role="status" className="font-medium text-emerald-800 dark:text-emerald-300">
            Tags saved.
          </p>
        )}
        {tags.length === 0 ? (
          <p className="text-sm">
            The clinic has no tags yet:{" "}
            <a href={manage} className={linkClass}>
              create them on the population page
            </a>
            .
          </p>
        ) : (
          <form
            method="post"
            action={`/api/clinic/patients/${encodeURIComponent(patientId)}/tags`}
            className="space-y-3"
          >
            <fieldset className="flex flex-wrap gap-x-5 gap-y-2">
              <legend className="sr-only">The clinic&apos;s tags</legend>
              {tags.map((t) => (
                <label key={t.id} className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    name={`tag_${t.id}`}
                    defaultChecked={on.has(t.id)}
                    className="h-5 w-5"
                  />
                  {t.name}
                </label>
              ))}
            </fieldset>
            <div className="flex flex-wrap items-center gap-3">
              <button type="submit" className={secondaryButtonClass}>
                Save tags
              </button>
              <a href={manage} className={`${linkClass} text-sm`}>
                Manage the clinic&apos;s tags
              </a>
            </div>
          </form>
        )}
      </Panel>
    </div>
  );
}
