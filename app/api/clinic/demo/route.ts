import { demo } from "@/lib/api/clinic-routes";

export const dynamic = "force-dynamic";
export const POST = demo;
