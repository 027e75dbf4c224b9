import "server-only";
import type { z } from "zod";
import { statisticsV1RequestSchema, statisticsV2RequestSchema, windowQueryFrom, zodMessage } from "@/lib/cgm";
import { readJson } from "@/lib/http/body";
import {
  getCalibrations,
  getDataRange,
  getDevices,
  getEgvs,
  getEvents,
  getStatistics,
  type Window,
} from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { InputError } from "./errors";
import type { PatientContext } from "./route";

/**
 * /api/cgm/<service path>: the service's data paths, mirrored for the signed-in patient. Input is
 * checked with the shared schemas before anything goes upstream, and the typed client refuses a
 * window past the limit of every request before it asks for a token, so a bad or overlong window
 * or statistics body costs the service nothing; answers go through the typed client (refresh,
 * retries, long windows split and merged).
 */

type Read = (connection: ConnectionRef, window: Window) => Promise<unknown>;

const WINDOWED_READS: Record<string, Read> = {
  "v1/users/self/egvs": (c, w) => getEgvs(c, "v1", w),
  "v2/users/self/egvs": (c, w) => getEgvs(c, "v2", w),
  "v3/users/self/egvs": (c, w) => getEgvs(c, "v3", w),
  "v1/users/self/events": (c, w) => getEvents(c, "v1", w),
  "v2/users/self/events": (c, w) => getEvents(c, "v2", w),
  "v1/users/self/calibrations": (c, w) => getCalibrations(c, "v1", w),
  "v2/users/self/calibrations": (c, w) => getCalibrations(c, "v2", w),
  "v1/users/self/devices": (c, w) => getDevices(c, "v1", w),
  "v2/users/self/devices": (c, w) => getDevices(c, "v2", w),
};

const STATISTICS: Record<string, { version: "v1" | "v2"; schema: z.ZodType }> = {
  "v1/users/self/statistics": { version: "v1", schema: statisticsV1RequestSchema },
  "v2/users/self/statistics": { version: "v2", schema: statisticsV2RequestSchema },
};

function servicePath(params: PatientContext["params"]): string {
  const segments = params.path;
  return Array.isArray(segments) ? segments.join("/") : (segments ?? "");
}

function notFound(path: string): InputError {
  return new InputError(`/api/cgm/${path} is not a data path of the service.`, 404, "not_found");
}

/** The query's window, checked in shape (a 400 otherwise); its length the client checks. */
export function parseWindowQuery(searchParams: URLSearchParams): Window {
  const parsed = windowQueryFrom(searchParams);
  if (!parsed.success) throw new InputError(zodMessage(parsed.error.issues));
  return parsed.data;
}

export async function proxyRead({ req, params, connection }: PatientContext): Promise<unknown> {
  const path = servicePath(params);
  if (path === "v2/users/self/dataRange") return getDataRange(connection);
  const read = WINDOWED_READS[path];
  if (!read) {
    if (STATISTICS[path])
      throw new InputError("Statistics are requested with POST.", 405, "method_not_allowed");
    throw notFound(path);
  }
  return read(connection, parseWindowQuery(req.nextUrl.searchParams));
}

export async function proxyStatistics({ req, params, connection }: PatientContext): Promise<unknown> {
  const path = servicePath(params);
  const endpoint = STATISTICS[path];
  if (!endpoint) {
    if (WINDOWED_READS[path] || path === "v2/users/self/dataRange")
      throw new InputError(`/api/cgm/${path} is read with GET.`, 405, "method_not_allowed");
    throw notFound(path);
  }
  const window = parseWindowQuery(req.nextUrl.searchParams);
  const body = endpoint.schema.safeParse(await readJson(req));
  if (!body.success) throw new InputError(zodMessage(body.error.issues));
  return getStatistics(connection, endpoint.version, window, body.data);
}
