"use client";

import { ErrorNotice } from "@/components/layout/ErrorNotice";

/**
 * Any page whose rendering failed on the server (or in the browser) outside the states it designs
 * for: instead of Next's bare error page, a plain notice inside the app's own layout. `retry`
 * fetches the page from the server again, which a server error needs; `reset` would only re-render
 * what failed.
 */
export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  // No <title> here: the page's own metadata title comes first in <head> and would win anyway; the
  // focused heading is what announces the failure.
  return <ErrorNotice error={error} retry={retry} />;
}
