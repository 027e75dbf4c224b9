/**
 * The input rules of the HTTP edge, shared by the dashboard and the sandbox (which is conceptually
 * a service of its own, so neither owns them): what a URL, a form or JSON field, a content type, a
 * redirect target and a cross-site request may be. Pure functions, so they are tested without a
 * server; proxy.ts applies the URL rules to every request, lib/http/body.ts the body rules to every
 * form and JSON body read.
 *
 * Why at all: PostgreSQL refuses NUL in text (a 500 deep inside a query), control characters have
 * no business in ids, names or emails, and values copied into a Location header must stay small
 * enough for the proxies in front of us (nginx answers a response header over 4-8 KB with 502).
 */

export const INPUT_LIMITS = {
  /** One path segment, decoded: ids are UUIDs or short client ids. */
  pathSegment: 256,
  /** A query value, or a one-line form or JSON field: names, emails, tokens, return paths. */
  field: 1024,
  /** A field that is text a person writes (notes), where newlines and tabs belong. */
  multilineField: 10_000,
  /** A whole form or JSON body. */
  body: 64 * 1024,
  /**
   * A URL we accept, and a Location we send (which often copies one): far below what proxies
   * accept for all of a response's headers.
   */
  url: 2048,
} as const;

/** Why an input is refused: the status, a stable code, and what the person can do about it. */
export interface Refusal {
  status: 400 | 403 | 413 | 415;
  code: string;
  message: string;
}

/** A refusal thrown by the shared readers; each service maps it to its own error answer. */
export class InputRefused extends Error implements Refusal {
  constructor(
    message: string,
    readonly status: Refusal["status"] = 400,
    readonly code = "invalid_request",
  ) {
    super(message);
  }

  static of(r: Refusal): InputRefused {
    return new InputRefused(r.message, r.status, r.code);
  }
}

const TEXT_LAYOUT = new Set([0x09, 0x0a, 0x0d]);

/** The first control character (C0, DEL, C1; a multiline field keeps tab, LF and CR), or -1. */
function firstControl(value: string, multiline: boolean): number {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && !(multiline && TEXT_LAYOUT.has(c))) || (c >= 0x7f && c <= 0x9f)) return c;
  }
  return -1;
}

/**
 * One text value (a form or JSON field, a query value): no control characters (newlines and tabs
 * only in a multiline field), at most the field's length.
 */
export function checkText(
  where: string,
  value: string,
  options: { multiline?: boolean } = {},
): Refusal | null {
  const control = firstControl(value, options.multiline === true);
  if (control >= 0) {
    const what = control === 0 ? "a NUL byte (%00)" : "a control character";
    return {
      status: 400,
      code: "invalid_characters",
      message: `${where} contains ${what}; remove it and send the request again.`,
    };
  }
  const max = options.multiline ? INPUT_LIMITS.multilineField : INPUT_LIMITS.field;
  if (value.length > max) {
    return {
      status: 400,
      code: "too_long",
      message: `${where} is ${value.length} characters long; at most ${max} are accepted.`,
    };
  }
  return null;
}

/**
 * A request's URL: its length, then each path segment and each query name and value, decoded, as
 * text (path segments with their own, shorter limit). Both parts are as sent, percent-encoded.
 */
export function checkUrl(pathname: string, search: string): Refusal | null {
  if (pathname.length + search.length > INPUT_LIMITS.url) {
    return {
      status: 400,
      code: "too_long",
      message: `The address is ${pathname.length + search.length} characters long; at most ${INPUT_LIMITS.url} are accepted.`,
    };
  }
  for (const raw of pathname.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return {
        status: 400,
        code: "invalid_path",
        message: "The address contains a malformed %-escape; check the link.",
      };
    }
    const bad = checkText("The address", segment);
    if (bad) return bad;
    if (segment.length > INPUT_LIMITS.pathSegment) {
      return {
        status: 400,
        code: "too_long",
        message: `A part of the address is ${segment.length} characters long; at most ${INPUT_LIMITS.pathSegment} are accepted.`,
      };
    }
  }
  for (const [name, value] of new URLSearchParams(search)) {
    const bad = checkText(`The query parameter ${JSON.stringify(name.slice(0, 40))}`, `${name}${value}`);
    if (bad) return bad;
  }
  return null;
}

export type BodyKind = "form" | "json";

/** The media type of a Content-Type header, lower case, without parameters ("" when absent). */
export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** Whether a body's Content-Type is the kind the route reads; a refusal that names it if not. */
export function checkContentType(contentType: string | null, kind: BodyKind): Refusal | null {
  const type = mediaType(contentType);
  const fits =
    kind === "form"
      ? FORM_TYPES.has(type)
      : type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type);
  if (fits) return null;
  const expected =
    kind === "form" ? "application/x-www-form-urlencoded or multipart/form-data" : "application/json";
  return {
    status: 415,
    code: "unsupported_media_type",
    message: `This request takes a ${kind === "form" ? "form" : "JSON"} body sent as ${expected}${type ? `, not ${type}` : " (no Content-Type was given)"}.`,
  };
}

/** A body larger than we read: 413, before reading it. */
export function checkBodySize(bytes: number): Refusal | null {
  if (bytes <= INPUT_LIMITS.body) return null;
  return {
    status: 413,
    code: "too_large",
    message: `The request body is larger than ${INPUT_LIMITS.body / 1024} KB; send less.`,
  };
}

/**
 * Every string of a parsed JSON body (keys included) as text: one-line unless its key is in
 * `multiline`. Returns the first refusal.
 */
export function checkJsonStrings(value: unknown, multiline: ReadonlySet<string> = new Set()): Refusal | null {
  const walk = (v: unknown, key: string | null): Refusal | null => {
    if (typeof v === "string") {
      return checkText(key ? `The field ${JSON.stringify(key.slice(0, 40))}` : "A value", v, {
        multiline: key !== null && multiline.has(key),
      });
    }
    if (Array.isArray(v)) {
      for (const item of v) {
        const bad = walk(item, key);
        if (bad) return bad;
      }
      return null;
    }
    if (v && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) {
        const bad = checkText("A field name", k) ?? walk(item, k);
        if (bad) return bad;
      }
    }
    return null;
  };
  return walk(value, null);
}

/** A Location we are about to send: refused when longer than proxies reliably pass on. */
export function checkLocation(location: string): Refusal | null {
  if (location.length <= INPUT_LIMITS.url) return null;
  return {
    status: 400,
    code: "too_long",
    message: `The page to go on to would need an address of ${location.length} characters (at most ${INPUT_LIMITS.url}); shorten what the form sent.`,
  };
}

/**
 * The cross-site rule of every state-changing form and API call: a present Origin must be ours,
 * and a browser that says the request is cross-site is refused even without one (old browsers and
 * some privacy settings leave Origin out; `Sec-Fetch-Site` is the browser's own word).
 */
export function isCrossSite(
  headers: { origin: string | null; secFetchSite: string | null },
  ownOrigin: string,
): boolean {
  if (headers.origin !== null) return headers.origin !== ownOrigin;
  return headers.secFetchSite === "cross-site";
}

/** The rule above, read off a request's headers. */
export function isCrossSiteRequest(req: Request, ownOrigin: string): boolean {
  return isCrossSite(crossSiteHeaders(req), ownOrigin);
}

/** The headers the cross-site rule reads. */
export function crossSiteHeaders(req: Request): { origin: string | null; secFetchSite: string | null } {
  return { origin: req.headers.get("origin"), secFetchSite: req.headers.get("sec-fetch-site") };
}

/**
 * Next treats a POST with a multipart body or a Next-Action header as a server action of the page
 * it is sent to, and answers one from another origin with a 500 of its own: refused here with a
 * 403, by the rule above. Our route handlers that take such posts refuse them the same way.
 */
export function crossSiteActionRefusal(
  request: {
    method: string;
    contentType: string | null;
    nextAction: string | null;
    origin: string | null;
    secFetchSite: string | null;
  },
  ownOrigin: string,
): Refusal | null {
  const possibleAction =
    request.method === "POST" &&
    (request.nextAction !== null || mediaType(request.contentType) === "multipart/form-data");
  if (!possibleAction || !isCrossSite(request, ownOrigin)) return null;
  return {
    status: 403,
    code: "forbidden_origin",
    message: "This form can only be sent from this site's own pages.",
  };
}
