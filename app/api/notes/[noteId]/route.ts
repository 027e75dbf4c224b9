import { editPatientNoteRoute } from "@/lib/api/patient-notes-routes";

export const dynamic = "force-dynamic";
export const POST = editPatientNoteRoute;
