import "server-only";
import type { z } from "zod";
import {
  calibrationsResponseSchema,
  dataRangeResponseSchema,
  devicesV1ResponseSchema,
  devicesV2ResponseSchema,
  type EgvsV1Response,
  type EgvsV2Response,
  type EgvV3Read,
  type EventV1,
  type EventV2,
  egvsV1ResponseSchema,
  egvsV2ResponseSchema,
  egvsV3ReadSchema,
  eventsV1ResponseSchema,
  eventsV2ResponseSchema,
  formatDateTime,
  parseDateTime,
  type StatisticsV1Response,
  type StatisticsV2Response,
  statisticsV1ResponseSchema,
  statisticsV2ResponseSchema,
  V3_MAX_WINDOW_DAYS,
  type V3Read,
  windowBoundsProblem,
} from "@/lib/cgm";
import { currentCallContext } from "./call-gate";
import { serviceConfig } from "./config";
import { accessToken, type ConnectionRef, connectionIdOf, ReconnectRequired } from "./tokens";
import { fetchWithRetry, ServiceError } from "./transport";
import { mapWithConcurrency, mergeBySystemTime, splitWindow } from "./windows";

/**
 * Typed calls to the service for one connection. Every call carries a fresh access token; a 401
 * gets one refresh (shared with every concurrent caller) and one retry, and a second 401 means the
 * authorization is gone. Windowed reads longer than CGM_MAX_WINDOW_DAYS are split into chunks
 * fetched a few at a time and merged in order without duplicates; no windowed call reads more than
 * CGM_MAX_REQUEST_DAYS, whoever asks. Responses are parsed with the shared schemas, so the rest of
 * the app only sees the service's documented shapes. The calling context (call-gate.ts) may gate
 * each attempt and abandon the calls.
 */

const CHUNK_CONCURRENCY = 3;

export interface ServiceRequest {
  method?: "GET" | "POST";
  /** Path below the service's base, e.g. "/v2/users/self/egvs". */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

/** One request with the connection's token; returns the service's Response (2xx or an error status). */
export async function serviceRequest(connection: ConnectionRef, request: ServiceRequest): Promise<Response> {
  const { baseUrl } = serviceConfig();
  const url = new URL(`${baseUrl}${request.path}`);
  for (const [k, v] of Object.entries(request.query ?? {})) url.searchParams.set(k, v);
  const { gate, signal } = currentCallContext();
  const send = (token: string) =>
    fetchWithRetry(
      url.toString(),
      {
        method: request.method ?? "GET",
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: "application/json",
          ...(request.body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
      },
      undefined,
      gate,
    );
  const token = await accessToken(connection);
  const first = await send(token);
  if (first.status !== 401) return first;
  await first.body?.cancel();
  const second = await send(await accessToken(connection, token));
  if (second.status === 401) {
    await second.body?.cancel();
    throw new ReconnectRequired(connectionIdOf(connection));
  }
  return second;
}

/** The body of a successful response, parsed; any other status becomes a ServiceError. */
async function parsed<S extends z.ZodType>(response: Response, schema: S): Promise<z.infer<S>> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    throw new ServiceError(
      response.status === 429 ? "rate_limited" : response.status >= 500 ? "unavailable" : "upstream_error",
      response.status,
      `The service answered ${response.status}.`,
      body,
    );
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new ServiceError(
      "malformed_response",
      response.status,
      "The service's answer does not match its specification.",
    );
  }
  return result.data;
}

export interface Window {
  startDate: string;
  endDate: string;
}

/** A window no request may ask of the service (lib/cgm/window-bounds.ts): a 400 to whoever asked. */
export class WindowRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WindowRefused";
  }
}

/**
 * The window in milliseconds, once it is one any request may read: the one check of every
 * windowed call and of the dashboard's API (which checks before it spends anything else), so no
 * entry point can ask the service for more.
 */
export function checkedWindow(window: Window): { startMs: number; endMs: number } {
  const startMs = parseDateTime(window.startDate);
  const endMs = parseDateTime(window.endDate);
  if (startMs === null || endMs === null || endMs < startMs) {
    throw new WindowRefused("startDate and endDate must be DateTimes (YYYY-MM-DDThh:mm:ss), in that order.");
  }
  const problem = windowBoundsProblem(startMs, endMs, serviceConfig().maxRequestDays);
  if (problem) throw new WindowRefused(problem);
  return { startMs, endMs };
}

/**
 * Splits a window longer than the configured maximum; each chunk is fetched and parsed. v3 answers
 * at most 30 days and ends a window before endDate (service-v3-notes §1.2): its chunks are at most
 * 30 days and each ends where the next starts, so no second between them is lost.
 */
async function chunked<T>(
  window: Window,
  fetchChunk: (chunk: Window) => Promise<T>,
  version: "v1" | "v2" | "v3" = "v2",
): Promise<T[]> {
  const { startMs: start, endMs: end } = checkedWindow(window);
  const maxDays = serviceConfig().maxWindowDays;
  const parts = splitWindow(start, end, version === "v3" ? Math.min(maxDays, V3_MAX_WINDOW_DAYS) : maxDays);
  const chunks = parts.map((c, i) => ({
    startDate: formatDateTime(c.startMs),
    endDate: formatDateTime(version === "v3" && i < parts.length - 1 ? c.endMs + 1000 : c.endMs),
  }));
  return mapWithConcurrency(chunks, CHUNK_CONCURRENCY, (c) => fetchChunk(c));
}

const windowQuery = (w: Window) => ({ startDate: w.startDate, endDate: w.endDate });

type EgvsOf<V> = V extends "v1" ? EgvsV1Response : V extends "v3" ? V3Read<EgvV3Read> : EgvsV2Response;

/** v3 EGVs, read leniently (lib/cgm/v3-read.ts) and merged by recordId. */
async function getEgvsV3(connection: ConnectionRef, window: Window): Promise<V3Read<EgvV3Read>> {
  const parts = await chunked(
    window,
    async (w) =>
      parsed(
        await serviceRequest(connection, { path: "/v3/users/self/egvs", query: windowQuery(w) }),
        egvsV3ReadSchema,
      ),
    "v3",
  );
  const first = parts[0];
  if (!first) throw new ServiceError("upstream_error", 400, "Empty window.");
  return {
    ...first,
    records: mergeBySystemTime(
      parts.map((p) => p.records),
      (r) => r.recordId,
    ),
    dropped: parts.flatMap((p) => p.dropped),
  };
}

export async function getEgvs<V extends "v1" | "v2" | "v3">(
  connection: ConnectionRef,
  version: V,
  window: Window,
): Promise<EgvsOf<V>> {
  if (version === "v3") return (await getEgvsV3(connection, window)) as EgvsOf<V>;
  const schema = version === "v1" ? egvsV1ResponseSchema : egvsV2ResponseSchema;
  const parts = await chunked(window, async (w) =>
    parsed(
      await serviceRequest(connection, { path: `/${version}/users/self/egvs`, query: windowQuery(w) }),
      schema,
    ),
  );
  const first = parts[0];
  if (!first) throw new ServiceError("upstream_error", 400, "Empty window.");
  const egvs = mergeBySystemTime<EgvsV2Response["egvs"][number] | EgvsV1Response["egvs"][number]>(
    parts.map((p) => p.egvs),
  );
  return { unit: first.unit, rateUnit: first.rateUnit, egvs } as EgvsOf<V>;
}

type EventsOf<V> = { events: V extends "v1" ? EventV1[] : EventV2[] };
type StatisticsOf<V> = V extends "v1" ? StatisticsV1Response : StatisticsV2Response;

export async function getEvents<V extends "v1" | "v2">(
  connection: ConnectionRef,
  version: V,
  window: Window,
): Promise<EventsOf<V>> {
  const parts = await chunked(window, async (w) => {
    const res = await serviceRequest(connection, {
      path: `/${version}/users/self/events`,
      query: windowQuery(w),
    });
    return version === "v1" ? parsed(res, eventsV1ResponseSchema) : parsed(res, eventsV2ResponseSchema);
  });
  const events = parts.map((p) => p.events as Array<{ systemTime: string; eventId?: string }>);
  // v2 events have an identity of their own; v1 events only their time and content.
  return { events: mergeBySystemTime(events, (e) => e.eventId ?? JSON.stringify(e)) } as EventsOf<V>;
}

export async function getCalibrations(connection: ConnectionRef, version: "v1" | "v2", window: Window) {
  const parts = await chunked(window, async (w) =>
    parsed(
      await serviceRequest(connection, {
        path: `/${version}/users/self/calibrations`,
        query: windowQuery(w),
      }),
      calibrationsResponseSchema,
    ),
  );
  return { calibrations: mergeBySystemTime(parts.map((p) => p.calibrations)) };
}

export async function getDevices(connection: ConnectionRef, version: "v1" | "v2", window: Window) {
  checkedWindow(window);
  const res = await serviceRequest(connection, {
    path: `/${version}/users/self/devices`,
    query: windowQuery(window),
  });
  return version === "v1" ? parsed(res, devicesV1ResponseSchema) : parsed(res, devicesV2ResponseSchema);
}

export async function getDataRange(connection: ConnectionRef) {
  return parsed(
    await serviceRequest(connection, { path: "/v2/users/self/dataRange" }),
    dataRangeResponseSchema,
  );
}

/** Statistics are not split: the service computes them over the whole window in one call. */
export async function getStatistics<V extends "v1" | "v2">(
  connection: ConnectionRef,
  version: V,
  window: Window,
  body: unknown,
): Promise<StatisticsOf<V>> {
  checkedWindow(window);
  const res = await serviceRequest(connection, {
    method: "POST",
    path: `/${version}/users/self/statistics`,
    query: windowQuery(window),
    body,
  });
  return (
    version === "v1" ? parsed(res, statisticsV1ResponseSchema) : parsed(res, statisticsV2ResponseSchema)
  ) as Promise<StatisticsOf<V>>;
}
