"use client";

import { useSyncExternalStore } from "react";
import { formatInstant, formatUtc } from "@/lib/clinic/views/format";

const never = () => () => {};

/**
 * A moment that is not a glucose time (an audit entry, a sync, a share) on the viewer's own clock
 * with its zone named ("2026-11-23 08:05 CST"). The server cannot know the viewer's zone, so it
 * renders UTC, named as such; the browser hydrates with that same text (the server snapshot) and
 * only then shows its own zone, so hydration never mismatches and a page without JavaScript (a
 * PDF, a reader with scripts off) still reads a correct, named time.
 */
export function ViewerTime({ at }: { at: string }) {
  return (
    <time dateTime={new Date(at).toISOString()} data-viewer-time>
      {useViewerInstant(at)}
    </time>
  );
}

/**
 * The text of ViewerTime, for where the moment goes into other words or an attribute (a title):
 * UTC on the server and while hydrating, then the viewer's own zone, named either way.
 */
export function useViewerInstant(at: string): string {
  const inBrowser = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  const date = new Date(at);
  return inBrowser ? formatInstant(date) : formatUtc(date);
}
