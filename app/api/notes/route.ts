import { addPatientNoteRoute, patientNotesJson } from "@/lib/api/patient-notes-routes";
import { patientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = patientRoute(({ userId }) => patientNotesJson(userId));
export const POST = addPatientNoteRoute;
