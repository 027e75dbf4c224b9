import "server-only";
import {
  checkBodySize,
  checkContentType,
  checkJsonStrings,
  checkText,
  checkUrl,
  crossSiteActionRefusal,
  crossSiteHeaders,
  InputRefused,
  mediaType,
  type Refusal,
} from "./input";

/**
 * The one reader of form and JSON bodies, for the dashboard's and the sandbox's route wrappers:
 * size, content type and every field checked by the rules of ./input.ts before a handler sees a
 * value. Each refusal is thrown as an InputRefused, which both services map to their 4xx answer.
 */

export interface BodyOptions {
  /** Fields that are text a person writes: newlines and tabs allowed, a longer limit. */
  multiline?: ReadonlySet<string>;
}

/** The raw body, at most INPUT_LIMITS.body bytes (refused by its declared length first). */
async function boundedBytes(req: Request): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get("content-length") ?? 0);
  const early = checkBodySize(Number.isFinite(declared) ? declared : 0);
  if (early) throw InputRefused.of(early);
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      const tooLarge = checkBodySize(size);
      if (tooLarge) throw InputRefused.of(tooLarge);
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof InputRefused) {
      await reader.cancel().catch(() => {});
      throw e;
    }
    throw new InputRefused("The request body could not be read completely; send it again.");
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * A form body (urlencoded or multipart), its text fields checked. An empty body is an empty form
 * whatever its Content-Type (a button-only form, or a fetch that sends none); files are refused,
 * since none of our forms takes one.
 */
export async function readForm(req: Request, options: BodyOptions = {}): Promise<FormData> {
  const bytes = await boundedBytes(req);
  if (bytes.byteLength === 0) return new FormData();
  return formOf(bytes, req.headers.get("content-type"), options);
}

async function formOf(
  bytes: Uint8Array<ArrayBuffer>,
  contentType: string | null,
  options: BodyOptions,
): Promise<FormData> {
  const wrongType = checkContentType(contentType, "form");
  if (wrongType) throw InputRefused.of(wrongType);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "Content-Type": contentType ?? "" } }).formData();
  } catch {
    throw new InputRefused(
      "The form body is malformed (a multipart body needs the boundary its Content-Type names); send the form again.",
    );
  }
  for (const [name, value] of form) {
    const bad =
      checkText("A field name", name) ??
      (typeof value === "string"
        ? checkText(`The field ${JSON.stringify(name.slice(0, 40))}`, value, {
            multiline: options.multiline?.has(name),
          })
        : {
            status: 400 as const,
            code: "unexpected_file",
            message: `The field ${JSON.stringify(name.slice(0, 40))} is a file; this form takes text only.`,
          });
    if (bad) throw InputRefused.of(bad);
  }
  return form;
}

/**
 * A JSON body: application/json, at most INPUT_LIMITS.body, valid, and every string checked.
 * `optional`: an empty body is undefined rather than refused (a body that only may carry a field).
 */
export async function readJson(req: Request, options?: BodyOptions & { optional?: false }): Promise<unknown>;
export async function readJson(
  req: Request,
  options: BodyOptions & { optional: true },
): Promise<unknown | undefined>;
export async function readJson(
  req: Request,
  options: BodyOptions & { optional?: boolean } = {},
): Promise<unknown> {
  const bytes = await boundedBytes(req);
  const text = new TextDecoder().decode(bytes);
  if (!text.trim()) {
    if (options.optional) return undefined;
    throw new InputRefused("A JSON request body is required.");
  }
  const wrongType = checkContentType(req.headers.get("content-type"), "json");
  if (wrongType) throw InputRefused.of(wrongType);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InputRefused("The request body is not valid JSON.");
  }
  const bad = checkJsonStrings(value, options.multiline);
  if (bad) throw InputRefused.of(bad);
  return value;
}

/**
 * What the edge (proxy.ts) refuses before any page or route sees a request: a URL against the
 * URL rules, a server action from another site, a body declared larger than we read, and a
 * multipart body that is not a readable form. Next itself parses a multipart POST to a page (as a
 * server action sent without JavaScript) and answers a broken one with 500; routes read theirs
 * with readForm, which this is, on a copy.
 */
export async function edgeRefusal(req: Request, ownOrigin: string): Promise<Refusal | null> {
  const url = new URL(req.url);
  const h = req.headers;
  const contentType = h.get("content-type");
  const early =
    checkUrl(url.pathname, url.search) ??
    crossSiteActionRefusal(
      {
        method: req.method,
        contentType,
        nextAction: h.get("next-action"),
        ...crossSiteHeaders(req),
      },
      ownOrigin,
    ) ??
    checkBodySize(Number(h.get("content-length")) || 0);
  if (early || mediaType(contentType) !== "multipart/form-data") return early;
  try {
    // Even an empty multipart form has its closing boundary: no body at all is broken too.
    await formOf(await boundedBytes(req.clone()), contentType, {});
    return null;
  } catch (e) {
    if (e instanceof InputRefused) return e;
    throw e;
  }
}
