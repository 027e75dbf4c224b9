import "server-only";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { zodMessage } from "@/lib/cgm";
import { env } from "@/lib/env";
import { deleteEvent } from "./deletions";
import { ApiError, OAuthError } from "./errors";
import { faultSettingsSchema, getFaults, setFaults } from "./faults";
import { readJson } from "./http";
import {
  authenticateClient,
  createApp,
  expireAccessTokens,
  findApp,
  rotateSecret,
  tokenStats,
} from "./oauth";

/** App management (spec section 5, "Application credentials") and the sandbox's fault controls. */

const redirectUriSchema = z.string().refine(
  (u) => {
    try {
      const url = new URL(u);
      return (url.protocol === "http:" || url.protocol === "https:") && !url.hash;
    } catch {
      return false;
    }
  },
  { message: "each redirect URI must be an absolute http(s) URL without a #fragment" },
);

export const createAppSchema = z
  .object({
    name: z.string().trim().min(1, "name is required").max(100, "name is at most 100 characters"),
    redirectUris: z.array(redirectUriSchema).min(1, "at least one redirect URI is required").max(10),
  })
  .strict();

export async function handleCreateApp(req: NextRequest): Promise<Response> {
  const parsed = createAppSchema.safeParse(await readJson(req));
  if (!parsed.success) throw new ApiError(400, "invalid_request", zodMessage(parsed.error.issues));
  const app = await createApp(parsed.data);
  return Response.json(app, { status: 201, headers: { "Cache-Control": "no-store" } });
}

export async function handleRotateSecret(clientId: string): Promise<Response> {
  const secret = await rotateSecret(clientId);
  if (!secret) throw new ApiError(404, "not_found", `No app is registered with client_id "${clientId}".`);
  return Response.json({ client_secret: secret }, { headers: { "Cache-Control": "no-store" } });
}

/** Fault controls act on one app and need its credentials (HTTP Basic), so tests cannot disturb each other. */
async function authenticateAppBasic(req: NextRequest, clientId: string) {
  if (env().SANDBOX_FAULTS === "off") {
    throw new ApiError(404, "not_found", "Fault injection is off in this sandbox (SANDBOX_FAULTS=off).");
  }
  if (!(await findApp(clientId)))
    throw new ApiError(404, "not_found", `No app is registered with client_id "${clientId}".`);
  const m = /^Basic\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "");
  const [id, secret] = m?.[1] ? Buffer.from(m[1], "base64").toString("utf8").split(":") : [];
  try {
    const app = await authenticateClient(id && decodeURIComponent(id), secret && decodeURIComponent(secret));
    if (app.clientId !== clientId) throw new OAuthError("invalid_client", "credentials of another app");
  } catch (e) {
    if (e instanceof OAuthError) {
      throw new ApiError(
        401,
        "invalid_client",
        "HTTP Basic credentials of this app (client_id:client_secret) are required.",
        {
          "WWW-Authenticate": 'Basic realm="sandbox"',
        },
      );
    }
    throw e;
  }
}

export async function handleGetFaults(req: NextRequest, clientId: string): Promise<Response> {
  await authenticateAppBasic(req, clientId);
  return Response.json(await getFaults(clientId), { headers: { "Cache-Control": "no-store" } });
}

export async function handlePutFaults(req: NextRequest, clientId: string): Promise<Response> {
  await authenticateAppBasic(req, clientId);
  const parsed = faultSettingsSchema.safeParse(await readJson(req));
  if (!parsed.success) throw new ApiError(400, "invalid_request", zodMessage(parsed.error.issues));
  return Response.json(await setFaults(clientId, parsed.data), { headers: { "Cache-Control": "no-store" } });
}

export async function handleExpireTokens(req: NextRequest, clientId: string): Promise<Response> {
  await authenticateAppBasic(req, clientId);
  return Response.json(
    { expired: await expireAccessTokens(clientId) },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function handleTokenStats(req: NextRequest, clientId: string): Promise<Response> {
  await authenticateAppBasic(req, clientId);
  return Response.json(await tokenStats(clientId), { headers: { "Cache-Control": "no-store" } });
}

/** POST …/apps/{clientId}/deleted-events {username, eventId, systemTime}: the user deletes that event. */
export async function handleDeleteEvent(req: NextRequest, clientId: string): Promise<Response> {
  await authenticateAppBasic(req, clientId);
  return Response.json(await deleteEvent(clientId, await readJson(req)), {
    status: 201,
    headers: { "Cache-Control": "no-store" },
  });
}
