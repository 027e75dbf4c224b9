import { reviewRoute } from "@/lib/api/clinic-notes-routes";

export const dynamic = "force-dynamic";
export const POST = reviewRoute;
