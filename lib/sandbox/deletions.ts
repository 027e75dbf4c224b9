import "server-only";
import { and, eq, gte, lte } from "drizzle-orm";
import { z } from "zod";
import { parseDateTime, zodMessage } from "@/lib/cgm";
import { db, schema } from "@/lib/db";
import { generateEvents } from "./data";
import { ApiError } from "./errors";
import type { DataWindow } from "./http";
import { findSandboxUser } from "./users";

/**
 * A sandbox user deleting a logged event, as they would in a receiving app that supports deletion
 * (spec, record lifecycle): from then on v2 serves the event with eventStatus "deleted", same
 * eventId and systemTime, and v1 leaves it out. The sandbox's generated records never change
 * status, so this developer control is how a client's handling of a later deletion is tested.
 * Deletions are kept per app, like the faults: another app (another test) still sees the event.
 */

export const eventDeletionSchema = z
  .object({
    username: z.string().min(1, "username is required"),
    eventId: z.string().min(1, "eventId is required"),
    systemTime: z.string().refine((t) => parseDateTime(t) !== null, {
      message: "systemTime must be the event's systemTime (YYYY-MM-DDThh:mm:ss)",
    }),
  })
  .strict();

export async function deleteEvent(clientId: string, body: unknown): Promise<{ eventId: string }> {
  const parsed = eventDeletionSchema.safeParse(body);
  if (!parsed.success) throw new ApiError(400, "invalid_request", zodMessage(parsed.error.issues));
  const { username, eventId, systemTime } = parsed.data;
  const user = findSandboxUser(username);
  if (!user) throw new ApiError(404, "not_found", `No sandbox user is named "${username}".`);
  const systemMs = parseDateTime(systemTime) ?? 0;
  const event = generateEvents(user, systemMs, systemMs, Date.now()).find((e) => e.eventId === eventId);
  if (!event) {
    throw new ApiError(
      404,
      "not_found",
      `${username} has no event ${eventId} at ${systemTime}; give an eventId and systemTime that v2 events served.`,
    );
  }
  await (await db())
    .insert(schema.sandboxEventDeletions)
    .values({ clientId, username, eventId, systemMs })
    .onConflictDoNothing();
  return { eventId };
}

/** The ids of the events in the window that the user deleted for this app. */
export async function deletedEventIds(
  clientId: string,
  username: string,
  w: DataWindow,
): Promise<ReadonlySet<string>> {
  const t = schema.sandboxEventDeletions;
  const rows = await (await db())
    .select({ eventId: t.eventId })
    .from(t)
    .where(
      and(
        eq(t.clientId, clientId),
        eq(t.username, username),
        gte(t.systemMs, w.startMs),
        lte(t.systemMs, w.endMs),
      ),
    );
  return new Set(rows.map((r) => r.eventId));
}
