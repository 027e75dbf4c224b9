import { ping } from "@/lib/db";

export const dynamic = "force-dynamic";

/** Readiness: answers 200 once the database is open and migrated. */
export async function GET() {
  try {
    await ping();
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch {
    return Response.json(
      { status: "unavailable", message: "The database is not ready." },
      { status: 503, headers: { "Cache-Control": "no-store" } },
    );
  }
}
