import { retryClinicDayForm } from "@/lib/api/clinic-day-routes";

export const dynamic = "force-dynamic";
export const POST = retryClinicDayForm;
