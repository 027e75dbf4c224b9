import "server-only";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { zodMessage } from "@/lib/cgm";
import { env } from "@/lib/platform/env";
import { authenticateClient, createApp, findApp, rotateSecret } from "./apps";
import { deleteEvent } from "./deletions";
import { ApiError, OAuthError } from "./errors";
import { faultSettingsSchema, getFaults, setFaults } from "./faults";
import { expireAccessTokens, tokenStats } from "./grants";
import { readJson } from "./http";
import { dashboardClientId } from "./register-dashboard";

/**
 * App management (spec section 5, "Application credentials") and the sandbox's test controls.
 * Registering is open; everything done to an existing app needs that app's current secret.
 */

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

const NO_STORE = { "Cache-Control": "no-store" };

const CREDENTIALS_HINT =
  "Send the app's current secret as HTTP Basic credentials (client_id:client_secret) or as client_secret in the JSON body.";

function unauthorized(message: string): ApiError {
  return new ApiError(401, "invalid_client", `${message} ${CREDENTIALS_HINT}`, {
    "WWW-Authenticate": 'Basic realm="sandbox", charset="UTF-8"',
  });
}

/** RFC 6749 section 2.3.1 form-encodes both parts; a client that did not is taken as written. */
function formDecode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    return part;
  }
}

/** client_id and client_secret of an `Authorization: Basic` header, or null without one. */
function basicCredentials(req: NextRequest): { id: string; secret: string } | null {
  const m = /^Basic\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  if (!m?.[1]) return null;
  const text = Buffer.from(m[1], "base64").toString("utf8");
  const colon = text.indexOf(":");
  if (colon < 0) return { id: formDecode(text), secret: "" };
  return { id: formDecode(text.slice(0, colon)), secret: formDecode(text.slice(colon + 1)) };
}

/** The JSON object of a body, or null when there is no body (a control without settings). */
async function bodyObject(req: NextRequest): Promise<Record<string, unknown> | null> {
  if (req.method === "GET" || req.method === "HEAD") return null;
  const body = await readJson(req, { optional: true });
  if (body === undefined) return null;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError(400, "invalid_request", "The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

/**
 * Checks the app's current secret (HTTP Basic first, else client_secret in the JSON body) and
 * returns the body without the credentials, for the control's own settings (null: no body).
 */
async function authenticateApp(req: NextRequest, clientId: string): Promise<Record<string, unknown> | null> {
  // An unknown app gets the answer of a wrong secret: who asks without one learns nothing of
  // which client ids exist.
  if (!(await findApp(clientId))) throw unauthorized("No app has this client_id and secret.");
  const body = await bodyObject(req);
  const { client_id: bodyId, client_secret: bodySecret, ...rest } = body ?? {};
  const basic = basicCredentials(req);
  const id = basic ? basic.id : (bodyId ?? clientId);
  const secret = basic ? basic.secret : bodySecret;
  if (typeof secret !== "string" || !secret) throw unauthorized("The app's client secret is missing.");
  if (id !== clientId) throw unauthorized("The credentials are not this app's.");
  try {
    await authenticateClient(clientId, secret);
  } catch (e) {
    if (e instanceof OAuthError) throw unauthorized("The client secret is not this app's current secret.");
    throw e;
  }
  return body && rest;
}

export async function handleRotateSecret(req: NextRequest, clientId: string): Promise<Response> {
  await authenticateApp(req, clientId);
  // The dashboard signs in with the secret it was configured with; a new one here would stop
  // every sign-in and token refresh until a restart registered the configured one again.
  if (clientId === dashboardClientId()) {
    throw new ApiError(
      409,
      "conflict",
      "This is the dashboard's own app: its secret is CGM_CLIENT_SECRET (or the one generated in DATA_DIR/secrets.json). Change it there and restart the server, which registers it again.",
    );
  }
  const secret = await rotateSecret(clientId);
  if (!secret) throw new ApiError(404, "not_found", `No app is registered with client_id "${clientId}".`);
  return Response.json({ client_secret: secret }, { headers: NO_STORE });
}

/**
 * The test controls (faults, expired tokens, token counts, deleted events) exist only when the
 * sandbox was started with SANDBOX_FAULTS=on, and act on one app with its secret, so tests
 * cannot disturb each other.
 */
async function authenticateControl(req: NextRequest, clientId: string) {
  if (env().SANDBOX_FAULTS !== "on") {
    throw new ApiError(
      404,
      "not_found",
      "Fault injection and the other test controls are off in this sandbox: start the server with SANDBOX_FAULTS=on to use them.",
    );
  }
  return authenticateApp(req, clientId);
}

/** The control's settings: its JSON body without the credentials, which it requires. */
async function controlSettings(req: NextRequest, clientId: string): Promise<Record<string, unknown>> {
  const settings = await authenticateControl(req, clientId);
  if (!settings) throw new ApiError(400, "invalid_request", "A JSON request body is required.");
  return settings;
}

export async function handleGetFaults(req: NextRequest, clientId: string): Promise<Response> {
  await authenticateControl(req, clientId);
  return Response.json(await getFaults(clientId), { headers: NO_STORE });
}

export async function handlePutFaults(req: NextRequest, clientId: string): Promise<Response> {
  const parsed = faultSettingsSchema.safeParse(await controlSettings(req, clientId));
  if (!parsed.success) throw new ApiError(400, "invalid_request", zodMessage(parsed.error.issues));
  return Response.json(await setFaults(clientId, parsed.data), { headers: NO_STORE });
}

export async function handleExpireTokens(req: NextRequest, clientId: string): Promise<Response> {
  await authenticateControl(req, clientId);
  return Response.json({ expired: await expireAccessTokens(clientId) }, { headers: NO_STORE });
}

export async function handleTokenStats(req: NextRequest, clientId: string): Promise<Response> {
  await authenticateControl(req, clientId);
  return Response.json(await tokenStats(clientId), { headers: NO_STORE });
}

/** POST …/apps/{clientId}/deleted-events {username, eventId, systemTime}: the user deletes that event. */
export async function handleDeleteEvent(req: NextRequest, clientId: string): Promise<Response> {
  const body = await controlSettings(req, clientId);
  return Response.json(await deleteEvent(clientId, body), { status: 201, headers: NO_STORE });
}
