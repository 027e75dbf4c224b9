import { addClinicNoteRoute, clinicNotesJson } from "@/lib/api/clinic-notes-routes";
import { clinicPatientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = clinicPatientRoute("view.notes", ({ viewerId, params }) =>
  clinicNotesJson(viewerId, typeof params.patientId === "string" ? params.patientId : ""),
);
export const POST = addClinicNoteRoute;
