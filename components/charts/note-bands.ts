import type { NoteBand } from "@/lib/clinic/domain/note-types";

export type { NoteBand } from "@/lib/clinic/domain/note-types";

/**
 * Notes' time ranges on the trace: a shaded column each, orange of the Okabe–Ito palette (apart
 * from the blue line and the green target band), light enough for the line to read through it.
 */
export const NOTE_BAND_COLOUR = "#E69F00";
export const NOTE_BAND_OPACITY = 0.2;

/** The bands that reach into [startMs, endMs], clipped to it. */
export function bandsWithin(
  bands: readonly NoteBand[] | undefined,
  startMs: number,
  endMs: number,
): NoteBand[] {
  return (bands ?? [])
    .filter((b) => b.endMs > startMs && b.startMs < endMs)
    .map((b) => ({ ...b, startMs: Math.max(b.startMs, startMs), endMs: Math.min(b.endMs, endMs) }));
}
