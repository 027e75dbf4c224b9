import Link from "next/link";
import {
  inputClass,
  linkClass,
  primaryButtonClass,
  secondaryButtonClass,
} from "@/components/clinic/ClinicForm";
import { Panel } from "@/components/patient/Panel";
import { TAG_NAME_MAX } from "@/lib/clinic/domain/note-input";
import type { TagView } from "@/lib/clinic/domain/review-types";

const STATUS: Record<string, string> = {
  created: "Tag created.",
  renamed: "Tag renamed.",
  deleted: "Tag deleted, and taken off every patient.",
};

/**
 * The clinic's tags: create, rename, delete (plain form POSTs), and a link to each tag's patients.
 * Tags are set on a patient on the patient's page.
 */
export function TagsPanel({
  clinicId,
  tags,
  status,
  here,
}: {
  clinicId: string;
  tags: TagView[];
  status?: string;
  here: string;
}) {
  const text = status ? STATUS[status] : undefined;
  return (
    <div id="tags" className="scroll-mt-4">
      <Panel title="Tags" id="clinic-tags">
        <p className="text-sm text-slate-700 dark:text-slate-300">
          This clinic&apos;s own labels for its patients (&quot;pump&quot;, &quot;Tuesday clinic&quot;): seen
          by its members only. Set them on a patient&apos;s page; show one tag&apos;s patients above.
        </p>
        {text && (
          <p
            role="status"
            className="font-medium text-emerald-800 dark:text-emerald-300"
            data-testid="tags-status"
          >
            {text}
          </p>
        )}
        {tags.length > 0 && (
          <ul className="space-y-2" data-testid="clinic-tags">
            {tags.map((t) => (
              <li key={t.id} className="flex flex-wrap items-end gap-2" data-tag={t.id}>
                <form
                  method="post"
                  action={`/api/clinic/tags/${encodeURIComponent(t.id)}`}
                  className="flex flex-wrap items-end gap-2"
                >
                  <input type="hidden" name="clinicId" value={clinicId} />
                  <label className="sr-only" htmlFor={`tag-name-${t.id}`}>
                    Name of the tag {t.name}
                  </label>
                  <input
                    id={`tag-name-${t.id}`}
                    name="name"
                    required
                    maxLength={TAG_NAME_MAX}
                    defaultValue={t.name}
                    className={`${inputClass} mt-0 w-48`}
                  />
                  <button type="submit" className={secondaryButtonClass}>
                    Rename
                  </button>
                </form>
                <form method="post" action={`/api/clinic/tags/${encodeURIComponent(t.id)}/delete`}>
                  <input type="hidden" name="clinicId" value={clinicId} />
                  <button type="submit" className={secondaryButtonClass}>
                    Delete
                  </button>
                </form>
                <Link
                  href={`${here}&tag=${encodeURIComponent(t.id)}#population`}
                  className={`${linkClass} py-2`}
                >
                  Patients tagged {t.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
        <form method="post" action="/api/clinic/tags" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="clinicId" value={clinicId} />
          <div>
            <label htmlFor="new-tag" className="block font-medium">
              New tag
            </label>
            <input id="new-tag" name="name" required maxLength={TAG_NAME_MAX} className={inputClass} />
          </div>
          <button type="submit" className={primaryButtonClass}>
            Create the tag
          </button>
        </form>
      </Panel>
    </div>
  );
}
