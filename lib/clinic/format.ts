/**
 * A moment of the clinic's records (audit entries, when access was given) as people read it:
 * "2026-11-23 14:05 UTC". Stated in UTC because the server renders it and cannot know the reader's
 * zone; an explicit zone is better than a local time that silently belongs to the server.
 */
export function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
