import { deletePatientNoteRoute } from "@/lib/api/patient-notes-routes";

export const dynamic = "force-dynamic";
export const POST = deletePatientNoteRoute;
