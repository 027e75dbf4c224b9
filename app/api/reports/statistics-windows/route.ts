import { patientRoute } from "@/lib/api/route";
import { statisticsWindowsRead, statisticsWindowsSave } from "@/lib/api/statistics-windows";

export const dynamic = "force-dynamic";
export const GET = patientRoute(statisticsWindowsRead);
export const POST = patientRoute(statisticsWindowsSave);
