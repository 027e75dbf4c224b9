"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { MS_PER_MINUTE, parseDateTime } from "@/lib/cgm/datetime";

const FIVE_MINUTES = 5 * MS_PER_MINUTE;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await res.json().catch(() => null);
  if (!res.ok)
    throw new ApiError(
      res.status,
      body?.error ?? "error",
      body?.message ?? `The server answered ${res.status}.`,
    );
  return body as T;
}

/**
 * The overview kept fresh, the page's only script besides the trace, the reading's age and the
 * settings: every 5 minutes and whenever the tab regains focus it asks the service's dataRange (one
 * small call) whether a newer EGV exists, and only then has the server render the page again
 * (router.refresh), so the rest of the page stays server-rendered and is not hydrated for this.
 */
export function OverviewRefresh({
  dataEndMs,
  apiVersion,
}: {
  /** systemTime (ms) of the newest EGV the page shows. */
  dataEndMs: number;
  /** The API version the server reads the service with: the proxy serves only that one's dataRange. */
  apiVersion: "v2" | "v3";
}) {
  const router = useRouter();
  const dataRange = useQuery({
    queryKey: ["dataRange", apiVersion],
    queryFn: () =>
      // v2's and v3's dataRange both carry egvs.end.systemTime (UTC).
      getJson<{ egvs: { end: { systemTime: string } } | null }>(
        `/api/cgm/${apiVersion}/users/self/dataRange`,
      ),
    refetchInterval: FIVE_MINUTES,
    refetchOnWindowFocus: true,
  });
  const newestAtService = dataRange.data?.egvs ? parseDateTime(dataRange.data.egvs.end.systemTime) : null;
  useEffect(() => {
    if (newestAtService !== null && newestAtService > dataEndMs) router.refresh();
  }, [newestAtService, dataEndMs, router]);

  const failure = dataRange.error;
  if (!failure) return null;
  const reconnect = failure instanceof ApiError && failure.code === "reconnect_required";
  return (
    <div
      role="alert"
      className="rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      {reconnect ? (
        <>
          The glucose service no longer accepts this dashboard&apos;s access.{" "}
          <a className="font-medium underline" href="/dashboard">
            Reconnect your CGM account
          </a>
          .
        </>
      ) : (
        <>
          Could not check for newer readings: {failure.message}{" "}
          <button type="button" className="font-medium underline" onClick={() => void dataRange.refetch()}>
            Retry
          </button>
        </>
      )}
    </div>
  );
}
