import "server-only";
import type { z } from "zod";
import {
  type AlertV3Read,
  alertsV3ReadSchema,
  type Calibration,
  type CalibrationV3Read,
  type CgmAlert,
  type CgmDevice,
  type CgmEvent,
  calibrationsResponseSchema,
  calibrationsV3ReadSchema,
  type DataRangeResponse,
  type DataRangeV3Read,
  type DeviceV1,
  type DeviceV3Read,
  dataRangeResponseSchema,
  dataRangeV3ReadSchema,
  devicesV1ResponseSchema,
  devicesV2ResponseSchema,
  devicesV3ReadSchema,
  type EgvsV1Response,
  type EgvsV2Response,
  type EgvV3Read,
  type EventV1,
  type EventV3Read,
  egvsV1ResponseSchema,
  egvsV2ResponseSchema,
  egvsV3ReadSchema,
  eventsV1ResponseSchema,
  eventsV2ResponseSchema,
  eventsV3ReadSchema,
  formatDateTime,
  type StatisticsV1Response,
  type StatisticsV2Response,
  statisticsV1ResponseSchema,
  statisticsV2ResponseSchema,
  V3_MAX_WINDOW_DAYS,
  type V3Read,
  type Window,
  windowBoundsProblem,
  windowOf,
} from "@/lib/cgm";
import type { CgmApiVersion } from "@/lib/platform/env";
import { currentCallContext } from "./call-gate";
import { serviceConfig } from "./config";
import { forgetConnection } from "./connection-cache";
import {
  calibrationsFromV3,
  dataRangeFromV3,
  devicesFromV3,
  droppedByReader,
  egvsFromV3,
  eventsFromV3,
  type LeftOut,
  mergeV3Reads,
  type Reshaped,
} from "./reshape-v3";
import { accessToken, type ConnectionRef, connectionIdOf, ReconnectRequired } from "./tokens";
import { fetchWithRetry, ServiceError } from "./transport";
import { mapWithConcurrency, mergeBySystemTime, splitWindow, splitWindowEndExclusive } from "./windows";

/**
 * Typed calls to the service for one connection. Every call carries a fresh access token; a 401
 * gets one refresh (shared with every concurrent caller) and one retry, and a second 401 means the
 * authorization is gone. Windowed reads longer than CGM_MAX_WINDOW_DAYS (API v3: never more than
 * its 30 days) are split into chunks fetched a few at a time and merged in order without
 * duplicates; no windowed call reads more than CGM_MAX_REQUEST_DAYS, whoever asks. The calling
 * context (call-gate.ts) may gate each attempt and abandon the calls.
 *
 * What the rest of the app gets is the app's own records (lib/cgm/app-records.ts), whichever version
 * was read: v1 and v2 answers are parsed with the shared schemas and are those records; v3 answers
 * are read by the lenient readers (lib/cgm/v3-read.ts) and reshaped at this edge (reshape-v3.ts).
 * The app reads with the configured version (`configuredVersion`, CGM_API_VERSION); in v3 it asks
 * nothing but /v3/users/self/* data paths. A v3 record that cannot be kept is left out and logged
 * with the reason, never an error of the whole answer.
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
  // The token held may be one the service no longer takes (revoked, or refreshed elsewhere).
  forgetConnection(connectionIdOf(connection));
  const second = await send(await accessToken(connection, token));
  if (second.status === 401) {
    await second.body?.cancel();
    throw new ReconnectRequired(connectionIdOf(connection));
  }
  return second;
}

/** A body as JSON, or undefined when it is empty or not JSON. */
function jsonOf(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** What an answer other than 2xx means, with the service's own body for the message. */
async function refusal(response: Response): Promise<ServiceError> {
  return new ServiceError(
    response.status === 429 ? "rate_limited" : response.status >= 500 ? "unavailable" : "upstream_error",
    response.status,
    `The service answered ${response.status}.`,
    jsonOf(await response.text()),
  );
}

/** The body of a successful response, parsed; any other status becomes a ServiceError. */
async function parsed<S extends z.ZodType>(response: Response, schema: S): Promise<z.infer<S>> {
  if (!response.ok) throw await refusal(response);
  const body = jsonOf(await response.text());
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

/**
 * One call whose answer is passed on as it comes, for a proxy path that changes nothing of it: the
 * status checked (anything but 2xx is the ServiceError `parsed` gives) and the type JSON, the body
 * then streamed to whoever asked, neither read nor checked here. The answer is a fresh Response:
 * none of the service's headers (its length or encoding, undone by fetch) go on.
 */
export async function relayed(connection: ConnectionRef, request: ServiceRequest): Promise<Response> {
  const response = await serviceRequest(connection, request);
  if (!response.ok) throw await refusal(response);
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(response.headers.get("content-type") ?? "")) {
    await response.body?.cancel();
    throw new ServiceError(
      "malformed_response",
      response.status,
      "The service's answer does not match its specification.",
    );
  }
  return new Response(response.body, { headers: { "Content-Type": "application/json" } });
}

/** A window no request may ask of the service (lib/cgm/window-bounds.ts): a 400 to whoever asked. */
export class WindowRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WindowRefused";
  }
}

/**
 * The window (lib/cgm/window.ts), once it is one any request may read: the one check of every
 * windowed call and of the dashboard's API (which checks before it spends anything else), so no
 * entry point can ask the service for more.
 */
export function checkedWindow(window: Window): Window {
  if (window.endMs < window.startMs) {
    throw new WindowRefused("startDate and endDate must be DateTimes (YYYY-MM-DDThh:mm:ss), in that order.");
  }
  const problem = windowBoundsProblem(window.startMs, window.endMs, serviceConfig().maxRequestDays);
  if (problem) throw new WindowRefused(problem);
  return window;
}

/** The calls a v1/v2 window takes: chunks of at most CGM_MAX_WINDOW_DAYS. */
function chunksOf(window: Window) {
  const { startMs, endMs } = checkedWindow(window);
  return splitWindow(startMs, endMs, serviceConfig().maxWindowDays);
}

/** Whether a v1/v2 window is read with one call (then its answer can be relayed as it comes). */
export const readInOneCall = (window: Window): boolean => chunksOf(window).length === 1;

/**
 * A windowed v1/v2 resource, its window split where it is longer than the service's maximum, each
 * chunk read and checked by its schema.
 */
async function readInChunks<S extends z.ZodType>(
  connection: ConnectionRef,
  path: string,
  window: Window,
  schema: S,
): Promise<z.infer<S>[]> {
  const chunks = chunksOf(window).map((c) => windowOf(c.startMs, c.endMs));
  return mapWithConcurrency(chunks, CHUNK_CONCURRENCY, async (w) =>
    parsed(await serviceRequest(connection, { path, query: windowQuery(w) }), schema),
  );
}

/** A window as the service's query asks for it. */
export const windowQuery = (w: Window) => ({ startDate: w.startDate, endDate: w.endDate });

/** The API version the app reads the service's data with (CGM_API_VERSION). */
export function configuredVersion(): CgmApiVersion {
  return serviceConfig().apiVersion;
}

// ---- API v3 -------------------------------------------------------------------------------------

const V3_WINDOWED = {
  egvs: egvsV3ReadSchema,
  calibrations: calibrationsV3ReadSchema,
  events: eventsV3ReadSchema,
  alerts: alertsV3ReadSchema,
} as const;
export type V3WindowedPath = keyof typeof V3_WINDOWED;
type V3RecordOf<K extends V3WindowedPath> = {
  egvs: EgvV3Read;
  calibrations: CalibrationV3Read;
  events: EventV3Read;
  alerts: AlertV3Read;
}[K];

/**
 * What a v3 read could not keep, in the server's log (with why, never the record's values): the
 * reader's drops (no recordId, no readable systemTime) and the reshape's (e.g. an EGV with neither
 * value nor status).
 */
export function logLeftOut(what: string, leftOut: readonly LeftOut[]): void {
  if (leftOut.length === 0) return;
  const shown = leftOut
    .slice(0, 5)
    .map((l) => `${l.record}: ${l.reason}`)
    .join("; ");
  const more = leftOut.length > 5 ? `; and ${leftOut.length - 5} more` : "";
  console.warn(`service: v3 ${what}: ${leftOut.length} record(s) left out (${shown}${more})`);
}

function reshaped<T>(what: string, r: Reshaped<T>): T {
  logLeftOut(what, r.leftOut);
  return r.value;
}

/**
 * One v3 data path over a window, as the lenient reader normalises it: the window checked like
 * every other, asked in chunks of at most 30 days with v3's excluded end (windows.ts), the chunks
 * merged by recordId. What the reader dropped is logged here.
 */
export async function readV3<K extends V3WindowedPath>(
  connection: ConnectionRef,
  path: K,
  window: Window,
): Promise<V3Read<V3RecordOf<K>>> {
  const { startMs, endMs } = checkedWindow(window);
  const maxDays = Math.min(serviceConfig().maxWindowDays, V3_MAX_WINDOW_DAYS);
  const chunks = splitWindowEndExclusive(startMs, endMs, maxDays);
  const schema = V3_WINDOWED[path] as unknown as z.ZodType<V3Read<V3RecordOf<K>>>;
  const parts = await mapWithConcurrency(chunks, CHUNK_CONCURRENCY, async (c) =>
    parsed(
      await serviceRequest(connection, {
        path: `/v3/users/self/${path}`,
        query: windowQuery(windowOf(c.startMs, c.endMs)),
      }),
      schema,
    ),
  );
  const merged = mergeV3Reads(parts);
  logLeftOut(path, droppedByReader(merged));
  return merged;
}

/** GET /v3/users/self/devices: every device, no window (notes §3.4). */
export async function readV3Devices(connection: ConnectionRef): Promise<V3Read<DeviceV3Read>> {
  const read = await parsed(
    await serviceRequest(connection, { path: "/v3/users/self/devices" }),
    devicesV3ReadSchema,
  );
  logLeftOut("devices", droppedByReader(read));
  return read;
}

/**
 * GET /v3/users/self/dataRange, with `lastSyncTime` (UTC, sent with its zone as the service wants
 * it: notes §1.2) when given: then only the ranges of data newer than it.
 */
export async function readV3DataRange(
  connection: ConnectionRef,
  options: { lastSyncTimeMs?: number } = {},
): Promise<DataRangeV3Read> {
  const query =
    options.lastSyncTimeMs === undefined
      ? undefined
      : { lastSyncTime: `${formatDateTime(options.lastSyncTimeMs)}Z` };
  return parsed(
    await serviceRequest(connection, { path: "/v3/users/self/dataRange", query }),
    dataRangeV3ReadSchema,
  );
}

// ---- The app's reads ----------------------------------------------------------------------------

type EgvsOf<V> = V extends "v1" ? EgvsV1Response : EgvsV2Response;

export async function getEgvs<V extends "v1" | "v2" | "v3">(
  connection: ConnectionRef,
  version: V,
  window: Window,
): Promise<EgvsOf<V>> {
  if (version === "v3") {
    const read = await readV3(connection, "egvs", window);
    return reshaped("egvs", egvsFromV3(read.records)) as EgvsOf<V>;
  }
  const parts = await readInChunks(
    connection,
    `/${version}/users/self/egvs`,
    window,
    version === "v1" ? egvsV1ResponseSchema : egvsV2ResponseSchema,
  );
  const first = parts[0];
  if (!first) throw new ServiceError("upstream_error", 400, "Empty window.");
  const egvs = mergeBySystemTime<EgvsV2Response["egvs"][number] | EgvsV1Response["egvs"][number]>(
    parts.map((p) => p.egvs),
  );
  return { unit: first.unit, rateUnit: first.rateUnit, egvs } as EgvsOf<V>;
}

type EventsOf<V> = { events: V extends "v1" ? EventV1[] : CgmEvent[] };
type StatisticsOf<V> = V extends "v1" ? StatisticsV1Response : StatisticsV2Response;

export async function getEvents<V extends "v1" | "v2" | "v3">(
  connection: ConnectionRef,
  version: V,
  window: Window,
): Promise<EventsOf<V>> {
  if (version === "v3") {
    const read = await readV3(connection, "events", window);
    return reshaped("events", eventsFromV3(read.records)) as EventsOf<V>;
  }
  const parts = await readInChunks(
    connection,
    `/${version}/users/self/events`,
    window,
    version === "v1" ? eventsV1ResponseSchema : eventsV2ResponseSchema,
  );
  const events = parts.map((p) => p.events as Array<{ systemTime: string; eventId?: string }>);
  // v2 events have an identity of their own; v1 events only their time and content.
  return { events: mergeBySystemTime(events, (e) => e.eventId ?? JSON.stringify(e)) } as EventsOf<V>;
}

export async function getCalibrations(
  connection: ConnectionRef,
  version: "v1" | "v2" | "v3",
  window: Window,
): Promise<{ calibrations: Calibration[] }> {
  if (version === "v3") {
    const read = await readV3(connection, "calibrations", window);
    return reshaped("calibrations", calibrationsFromV3(read.records));
  }
  const parts = await readInChunks(
    connection,
    `/${version}/users/self/calibrations`,
    window,
    calibrationsResponseSchema,
  );
  return { calibrations: mergeBySystemTime(parts.map((p) => p.calibrations)) };
}

type DevicesOf<V> = { devices: V extends "v1" ? DeviceV1[] : CgmDevice[] };

/**
 * The devices that contributed data to the window. v3 lists every device without a window; those
 * that have not uploaded since the window's start are left out (reshape-v3.ts, devicesFromV3).
 */
export async function getDevices<V extends "v1" | "v2" | "v3">(
  connection: ConnectionRef,
  version: V,
  window: Window,
): Promise<DevicesOf<V>> {
  const { startMs } = checkedWindow(window);
  if (version === "v3") {
    const read = await readV3Devices(connection);
    return reshaped("devices", devicesFromV3(read.records, startMs)) as DevicesOf<V>;
  }
  const res = await serviceRequest(connection, {
    path: `/${version}/users/self/devices`,
    query: windowQuery(window),
  });
  return (
    version === "v1" ? parsed(res, devicesV1ResponseSchema) : parsed(res, devicesV2ResponseSchema)
  ) as Promise<DevicesOf<V>>;
}

/** The first and last record of each data group, read with the configured version unless told. */
export async function getDataRange(
  connection: ConnectionRef,
  version: "v2" | "v3" = configuredVersion(),
): Promise<DataRangeResponse> {
  if (version === "v3") return dataRangeFromV3(await readV3DataRange(connection));
  return parsed(
    await serviceRequest(connection, { path: "/v2/users/self/dataRange" }),
    dataRangeResponseSchema,
  );
}

/**
 * The alerts that sounded or changed state in the window (v3 only: v2 had no alerts endpoint,
 * notes §1.1), in the order the service gave them.
 */
export async function getAlerts(connection: ConnectionRef, window: Window): Promise<{ alerts: CgmAlert[] }> {
  return { alerts: (await readV3(connection, "alerts", window)).records };
}

/**
 * Statistics are not split: the service computes them over the whole window in one call. v1 and v2
 * only: API v3 has no statistics (notes §1.1), and in v3 mode the app computes them itself
 * (lib/metrics/service-statistics.ts).
 */
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
