import { v3HasNoStatistics } from "@/lib/sandbox/http";

export const dynamic = "force-dynamic";
export const GET = v3HasNoStatistics;
export const POST = v3HasNoStatistics;
