import { withdrawShareRoute } from "@/lib/api/clinic-patient-routes";

export const dynamic = "force-dynamic";
export const POST = withdrawShareRoute;
