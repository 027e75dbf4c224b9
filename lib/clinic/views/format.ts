/**
 * A moment of the app's own records (audit entries, syncs, when access was given or withdrawn)
 * as people read it, zone named: "2026-11-23 08:05 CST". These are not glucose times, so they
 * are on the reader's own clock (components/layout/ViewerTime.tsx); the server, which cannot know
 * the reader's zone, writes UTC ("2026-11-23 14:05 UTC"), never a local time that silently
 * belongs to the server.
 */
export function formatInstant(date: Date, timeZone?: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}

/** The same on UTC: for text the server writes once for every reader (e-mails, files, logs). */
export function formatUtc(date: Date): string {
  return formatInstant(date, "UTC");
}
