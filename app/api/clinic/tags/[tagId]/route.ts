import { renameTagRoute } from "@/lib/api/clinic-notes-routes";

export const dynamic = "force-dynamic";
export const POST = renameTagRoute;
