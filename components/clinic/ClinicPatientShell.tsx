import Link from "next/link";
import { AppHeader } from "@/components/layout/AppHeader";
import { Panel } from "@/components/patient/Panel";
import { STATUS_HELP, STATUS_LABEL } from "@/lib/clinic/domain/patient-status";
import type { ClinicPatientAccess } from "@/lib/clinic/domain/patient-types";
import type { BlockedState } from "@/lib/dashboard/blocked-state";
import { clinicViewer, type PatientView, viewPath } from "@/lib/records/viewer";
import { DemoBadge } from "./ClinicFrame";

/** Every view the patient has of their data, in the patient's own order: the clinic sees them all. */
const VIEWS: readonly { view: PatientView; label: string }[] = [
  { view: "", label: "Overview" },
  { view: "/day", label: "Daily" },
  { view: "/events", label: "Events" },
  { view: "/alerts", label: "Alerts" },
  { view: "/calibrations", label: "Calibrations" },
  { view: "/devices", label: "Devices" },
  { view: "/agp", label: "AGP report" },
  { view: "/compare", label: "Compare" },
  { view: "/statistics", label: "Time of day" },
  { view: "/export", label: "Export" },
];

/**
 * A clinician's pages about one patient: whose data this is (name, date of birth, clinic), the way
 * back to the clinic, and the views. When the patient does not share now, the page says why and
 * what the clinic can do instead of showing data.
 */
export function ClinicPatientShell({
  access,
  current,
  title,
  sharing,
  settings,
  after,
  children,
}: {
  access: ClinicPatientAccess;
  current: PatientView;
  /** The view's name, under the patient's: the overview has none. */
  title?: string;
  /** False when the patient does not share their data now: the status is explained instead. */
  sharing: boolean;
  /** The clinic's settings for the patient (their goals): shown whether they share now or not. */
  settings?: React.ReactNode;
  /** What the clinic keeps on the patient (notes, review, tags): after the data, shared or not. */
  after?: React.ReactNode;
  children?: React.ReactNode;
}) {
  const { patient } = access;
  const viewer = clinicViewer(patient.id);
  return (
    <>
      <AppHeader signedIn />
      <nav
        aria-label="Patient views"
        className="border-b border-slate-200 bg-white print:hidden dark:border-slate-800 dark:bg-slate-900"
      >
        <ul className="mx-auto flex max-w-6xl flex-wrap gap-x-1 px-2 sm:px-4">
          <li>
            <Link
              href={`/clinic?clinic=${encodeURIComponent(access.clinicId)}`}
              className="inline-block px-2 py-2.5 text-sm font-medium text-slate-700 hover:text-slate-950 sm:px-3 dark:text-slate-300 dark:hover:text-white"
            >
              ← {access.clinicName}
            </Link>
          </li>
          {VIEWS.map((v) => (
            <li key={v.view}>
              <Link
                href={viewPath(viewer, v.view)}
                aria-current={v.view === current ? "page" : undefined}
                className="inline-block border-b-2 border-transparent px-2 py-2.5 text-sm font-medium text-slate-700 hover:text-slate-950 aria-[current=page]:border-blue-700 aria-[current=page]:text-blue-800 sm:px-3 dark:text-slate-300 dark:hover:text-white dark:aria-[current=page]:border-blue-400 dark:aria-[current=page]:text-blue-300"
              >
                {v.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main className="mx-auto max-w-6xl space-y-6 px-4 py-6 print:max-w-none print:space-y-2 print:p-0">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold print:text-lg" data-testid="patient-name">
            {patient.name}
            {/* The date kept whole: at 360 px it broke at its hyphen ("1975-" / "06-01"). */}
            {patient.birthDate && (
              <span className="font-normal text-slate-700 dark:text-slate-300">
                {" "}
                · <span className="whitespace-nowrap">born {patient.birthDate}</span>
              </span>
            )}
          </h1>
          {access.clinicDemo && <DemoBadge />}
        </div>
        {title && (
          <h2 className="text-xl font-semibold print:text-base" data-testid="view-title">
            {title}
          </h2>
        )}
        {settings}
        {sharing ? (
          children
        ) : (
          <Panel title={STATUS_LABEL[patient.status]} id="not-shared">
            <p data-testid="not-shared">
              {patient.name}&apos;s data cannot be shown:{" "}
              {STATUS_HELP[patient.status] || "the glucose service refused access."}
            </p>
          </Panel>
        )}
        {after}
      </main>
    </>
  );
}

/** The service refused or failed while the page read the patient's data: what it means for the clinic. */
const SERVICE_STATES: Partial<Record<BlockedState, { title: string; text: string }>> = {
  reconnect: {
    title: "Reconnect needed",
    text: "The glucose service no longer accepts this patient's authorization. Ask the patient to sign in to the dashboard and reconnect their CGM account.",
  },
  busy: {
    title: "Too many reads in a minute",
    text: "Your pages asked the glucose service for more data in the last minute than one person may. Wait a minute, then try again.",
  },
  refused: {
    title: "This period cannot be shown",
    text: "This page would have to read glucose data from before 1 January 2000, after 31 December 2099, or more days at once than one request may read, and the dashboard never asks the glucose service for those. Choose a later or shorter period.",
  },
};

export function ServiceStateNotice({ state }: { state: BlockedState }) {
  const { title, text } = SERVICE_STATES[state] ?? {
    title: "The glucose service is unavailable",
    text: "The glucose service could not be reached just now. Try again in a moment.",
  };
  return (
    <Panel title={title}>
      <p data-testid="service-state" data-state={state}>
        {text}
      </p>
    </Panel>
  );
}
