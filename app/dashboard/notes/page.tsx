import type { Metadata } from "next";
import { NotesPanel } from "@/components/notes/NotesPanel";
import { BlockedNotice } from "@/components/patient/BlockedNotice";
import { PatientShell } from "@/components/patient/PatientShell";
import { patientOwnNotes } from "@/lib/clinic/views/patient-own-notes";
import { isBlocked, patientPage } from "@/lib/dashboard/patient-page";

export const metadata: Metadata = { title: "Notes" };

/** The patient's notes: their own ("ill", "new pump") and those a clinician of theirs shared. */
export default async function NotesPage({ searchParams }: { searchParams: Promise<{ note?: string }> }) {
  const page = await patientPage();
  if (isBlocked(page))
    return (
      <PatientShell current="/dashboard/notes" title="Notes">
        <BlockedNotice state={page.blocked} returnTo="/dashboard/notes" />
      </PatientShell>
    );
  const own = await patientOwnNotes(page.userId);
  return (
    <PatientShell current="/dashboard/notes" title="Notes">
      <NotesPanel
        notes={own.notes}
        audience="patient"
        action="/api/notes"
        clockName="your receiver's clock"
        clockOffsetMinutes={null}
        returnTo="/dashboard/notes"
        status={(await searchParams).note}
        seenBy={own.seenBy}
      />
    </PatientShell>
  );
}
