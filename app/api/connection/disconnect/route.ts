import { disconnect } from "@/lib/api/auth-routes";

export const dynamic = "force-dynamic";
export const POST = disconnect;
