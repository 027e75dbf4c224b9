import "server-only";
import type { z } from "zod";
import {
  parseServiceTime,
  readWindow,
  serviceTimeUtcMs,
  statisticsV1RequestSchema,
  statisticsV2RequestSchema,
  type V3Read,
  v3QueryTimeSchema,
  type Window,
  windowQueryFrom,
  zodMessage,
} from "@/lib/cgm";
import { readJson } from "@/lib/http/body";
import {
  checkedWindow,
  configuredVersion,
  getCalibrations,
  getEgvs,
  getEvents,
  readInOneCall,
  readV3,
  readV3DataRange,
  readV3Devices,
  relayed,
  windowQuery,
} from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { InputError } from "./errors";
import type { PatientContext } from "./route";

/**
 * /api/cgm/<service path>: the service's data paths, mirrored for the signed-in patient. Input is
 * checked with the shared schemas before anything goes upstream, and the typed client refuses a
 * window past the limit of every request before it asks for a token, so a bad or overlong window
 * or statistics body costs the service nothing; answers go through the typed client (refresh,
 * retries, long windows split and merged: API v3 in chunks of at most its 30 days).
 *
 * API v1 and v2 paths answer the service's shapes: where one call answers (a window the service
 * takes at once, devices, dataRange, statistics) the service's body is passed on as it comes,
 * streamed once its status and type are checked (client.ts, `relayed`); a longer window is read
 * in chunks and merged. API v3 paths answer its envelope
 * ({recordType, recordVersion, userId, records}; dataRange with its three groups) with the records
 * as the dashboard reads them (lib/cgm/v3-read.ts: enumerations kept as "unknown" when new, times
 * as UTC DateTimes, the notes' repairs made; a record that cannot be placed is left out and logged).
 * With CGM_API_VERSION=v3 the dashboard asks the service nothing but v3 data paths: the others are
 * not served here then.
 */

type Read = (connection: ConnectionRef, window: Window) => Promise<unknown>;

/** A v3 read as the proxy answers it: the envelope and the normalised records. */
const envelopeOf = <R>({ recordType, recordVersion, userId, records }: V3Read<R>) => ({
  recordType,
  recordVersion,
  userId,
  records,
});

const V3_WINDOWED_READS: Record<string, Read> = Object.fromEntries(
  (["egvs", "calibrations", "events", "alerts"] as const).map((name) => [
    `v3/users/self/${name}`,
    async (c: ConnectionRef, w: Window) => envelopeOf(await readV3(c, name, w)),
  ]),
);

/** One call for the window, its answer passed on as the service gives it. */
const relayedRead =
  (path: string): Read =>
  (c, w) =>
    relayed(c, { path: `/${path}`, query: windowQuery(checkedWindow(w)) });

/** v1 and v2's windowed reads that take several calls when the window is long, merged. */
const OLDER_MERGED_READS: Record<string, Read> = {
  "v1/users/self/egvs": (c, w) => getEgvs(c, "v1", w),
  "v2/users/self/egvs": (c, w) => getEgvs(c, "v2", w),
  "v1/users/self/events": (c, w) => getEvents(c, "v1", w),
  "v2/users/self/events": (c, w) => getEvents(c, "v2", w),
  "v1/users/self/calibrations": (c, w) => getCalibrations(c, "v1", w),
  "v2/users/self/calibrations": (c, w) => getCalibrations(c, "v2", w),
};

/** A window one call reads (CGM_MAX_WINDOW_DAYS) is relayed; a longer one is merged from its chunks. */
const oneCallOrMerged =
  (path: string, merged: Read): Read =>
  (c, w) =>
    (readInOneCall(w) ? relayedRead(path) : merged)(c, w);

const OLDER_WINDOWED_READS: Record<string, Read> = {
  ...Object.fromEntries(
    Object.entries(OLDER_MERGED_READS).map(([path, merged]) => [path, oneCallOrMerged(path, merged)]),
  ),
  // Devices are one call whatever the window.
  "v1/users/self/devices": relayedRead("v1/users/self/devices"),
  "v2/users/self/devices": relayedRead("v2/users/self/devices"),
};

/** Paths read without a window: the data ranges, and v3's devices (which take no parameters). */
const UNWINDOWED = ["v2/users/self/dataRange", "v3/users/self/dataRange", "v3/users/self/devices"];

/** The statistics paths, with the schema of the body each takes. */
const STATISTICS: Record<string, z.ZodType> = {
  "v1/users/self/statistics": statisticsV1RequestSchema,
  "v2/users/self/statistics": statisticsV2RequestSchema,
};

const isV3 = (path: string) => path.startsWith("v3/");

/** Refuses a path the configured API version does not read (v3: nothing but v3). */
function checkServed(path: string): void {
  if (
    configuredVersion() === "v3" &&
    !isV3(path) &&
    (OLDER_WINDOWED_READS[path] || STATISTICS[path] || UNWINDOWED.includes(path))
  )
    throw new InputError(
      `/api/cgm/${path} is not served: this dashboard reads the service with API v3 (CGM_API_VERSION), under /api/cgm/v3/users/self/.`,
      404,
      "not_found",
    );
}

function servicePath(params: PatientContext["params"]): string {
  const segments = params.path;
  return Array.isArray(segments) ? segments.join("/") : (segments ?? "");
}

function notFound(path: string): InputError {
  return new InputError(`/api/cgm/${path} is not a data path of the service.`, 404, "not_found");
}

/**
 * The query's window, checked in shape (a 400 otherwise) and read once here, where the text
 * arrives (its text sent on as given); its length the client checks.
 */
export function parseWindowQuery(searchParams: URLSearchParams): Window {
  const parsed = windowQueryFrom(searchParams);
  if (!parsed.success) throw new InputError(zodMessage(parsed.error.issues));
  const window = readWindow(parsed.data);
  // The schema has read both DateTimes: this does not happen.
  if (!window) throw new InputError("startDate and endDate must be DateTimes (YYYY-MM-DDThh:mm:ss).");
  return window;
}

export async function proxyRead({ req, params, connection }: PatientContext): Promise<unknown> {
  const path = servicePath(params);
  checkServed(path);
  const query = req.nextUrl.searchParams;
  if (path === "v2/users/self/dataRange") return relayed(connection, { path: "/v2/users/self/dataRange" });
  if (path === "v3/users/self/dataRange") return readV3DataRange(connection, lastSyncTimeOf(query));
  if (path === "v3/users/self/devices") return envelopeOf(await readV3Devices(connection));
  const read = V3_WINDOWED_READS[path] ?? OLDER_WINDOWED_READS[path];
  if (!read) {
    if (STATISTICS[path])
      throw new InputError("Statistics are requested with POST.", 405, "method_not_allowed");
    if (path === "v3/users/self/statistics")
      throw new InputError("API v3 has no statistics endpoint.", 404, "not_found");
    throw notFound(path);
  }
  return read(connection, parseWindowQuery(query));
}

/** v3's dataRange may be asked for data newer than `lastSyncTime` (a date-time, a zone optional: UTC without). */
function lastSyncTimeOf(query: URLSearchParams): { lastSyncTimeMs?: number } {
  const text = query.get("lastSyncTime");
  if (text === null) return {};
  const parsed = v3QueryTimeSchema.safeParse(text);
  const time = parsed.success ? parseServiceTime(parsed.data) : null;
  if (!time)
    throw new InputError(
      `lastSyncTime: ${parsed.success ? "must be a date-time" : zodMessage(parsed.error.issues)}`,
    );
  return { lastSyncTimeMs: serviceTimeUtcMs(time) };
}

export async function proxyStatistics({ req, params, connection }: PatientContext): Promise<unknown> {
  const path = servicePath(params);
  checkServed(path);
  const schema = STATISTICS[path];
  if (!schema) {
    if (V3_WINDOWED_READS[path] || OLDER_WINDOWED_READS[path] || UNWINDOWED.includes(path))
      throw new InputError(`/api/cgm/${path} is read with GET.`, 405, "method_not_allowed");
    if (path === "v3/users/self/statistics")
      throw new InputError("API v3 has no statistics endpoint.", 404, "not_found");
    throw notFound(path);
  }
  const window = parseWindowQuery(req.nextUrl.searchParams);
  const body = schema.safeParse(await readJson(req));
  if (!body.success) throw new InputError(zodMessage(body.error.issues));
  // Computed by the service over the whole window in one call, and passed on as it answers.
  return relayed(connection, {
    method: "POST",
    path: `/${path}`,
    query: windowQuery(checkedWindow(window)),
    body: body.data,
  });
}
