import { saveTriage } from "@/lib/api/clinic-population-routes";

export const dynamic = "force-dynamic";
export const POST = saveTriage;
