import "server-only";
import type { ReactNode } from "react";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { type ClinicPatientPage, clinicPatientPage } from "@/lib/clinic/views/patient-page";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import type { AuditAction } from "@/lib/db/schema/clinic";
import type { SearchParam } from "@/lib/records/query";
import { clinicViewer, type PatientView, type Viewer } from "@/lib/records/viewer";
import type { ConnectionRow } from "@/lib/service-client/tokens";

type Search = Record<string, SearchParam>;

/** What a view's steps are given: the checked access, the shared connection and the parsed query. */
export interface ClinicViewContext<Q> {
  patientId: string;
  page: ClinicPatientPage;
  connection: ConnectionRow;
  viewer: Viewer;
  search: Search;
  query: Q;
}

/** A view's entry in the clinic's audit log; the action is always one of the view.* ones. */
export type ViewAudit = { action: Extract<AuditAction, `view.${string}`>; detail?: string };

export interface ClinicViewSpec<Q, M> {
  /** The view's name under the patient's, in every state of the page (none: no heading). */
  title?: string;
  /** The loaded view's name when it depends on what was loaded (the day shown). */
  titleOf?: (model: M) => string;
  /** The search parameters read; pure, so a bad query never reaches the service. */
  parse?: (search: Search) => Q;
  /** The page also opens for a clinic day's render grant of this patient (the AGP page only). */
  renderGrant?: boolean;
  /** Whether the page may read the patient's data beyond the shared connection (default: yes). */
  shares?: (page: ClinicPatientPage) => boolean;
  /** The view's data; service failures become the shell's notice (withServiceStates). */
  load: (ctx: ClinicViewContext<Q>) => Promise<M>;
  /** What the clinic's log records of this view, or null when nothing was looked at. */
  audit: (model: M, ctx: ClinicViewContext<Q>) => ViewAudit | null | Promise<ViewAudit | null>;
  render: (model: M, ctx: ClinicViewContext<Q>) => ReactNode | Promise<ReactNode>;
}

/** A clinic patient view page's props, as Next.js gives them. */
export type ClinicViewProps = { params: Promise<{ patientId: string }>; searchParams?: Promise<Search> };

/**
 * A clinician's page of one view of a patient's data (as the patient's own page shows it): the
 * access check of clinicPatientPage (signed out: to the sign-in; another clinic's or an unknown
 * id: 404), the shell with the patient's name and views, the patient's status instead of data
 * when they do not share now, the service's state when it refuses, and the view.* audit entry
 * once the data is shown. The page itself names only what differs: its query, load and render.
 */
export async function clinicPatientView<Q = undefined, M = unknown>(
  { params, searchParams }: ClinicViewProps,
  view: PatientView,
  spec: ClinicViewSpec<Q, M>,
) {
  const { patientId } = await params;
  const search = (await searchParams) ?? {};
  const query = spec.parse ? spec.parse(search) : (undefined as Q);
  const page = await clinicPatientPage(patientId, { renderGrant: spec.renderGrant ?? false });
  const shell = { access: page.access, current: view, title: spec.title } as const;
  const { connection } = page;
  if (!connection || (spec.shares && !spec.shares(page)))
    return <ClinicPatientShell {...shell} sharing={false} />;
  const ctx: ClinicViewContext<Q> = {
    patientId,
    page,
    connection,
    viewer: clinicViewer(patientId),
    search,
    query,
  };
  const model = await withServiceStates(() => spec.load(ctx));
  if (isBlocked(model))
    return (
      <ClinicPatientShell {...shell} sharing>
        <ServiceStateNotice state={model.blocked} />
      </ClinicPatientShell>
    );
  const entry = await spec.audit(model, ctx);
  if (entry) await page.audit(entry.action, entry.detail);
  const body = await spec.render(model, ctx);
  return (
    <ClinicPatientShell {...shell} title={spec.titleOf?.(model) ?? spec.title} sharing>
      {body}
    </ClinicPatientShell>
  );
}
