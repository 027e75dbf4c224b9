import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Every route of app/, read from the folder itself, so a route added later is fuzzed without
 * anyone listing it: pages answer GET, route handlers the methods their route.ts exports.
 */

export type Segment =
  | { kind: "static"; value: string }
  | { kind: "dynamic"; name: string }
  /** `[...name]`: one or more segments. */
  | { kind: "catchAll"; name: string };

export interface AppRoute {
  /** The route as its folder names it, e.g. `/api/clinic/patients/[patientId]/summary`. */
  pattern: string;
  segments: Segment[];
  methods: string[];
}

const ROOT = path.resolve(__dirname, "../../app");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

function segmentOf(name: string): Segment | null {
  // Route groups `(name)` and private folders `_name` are not part of the URL.
  if (/^\(.*\)$/.test(name)) return null;
  const catchAll = /^\[\[?\.\.\.(\w+)\]\]?$/.exec(name);
  if (catchAll) return { kind: "catchAll", name: catchAll[1]! };
  const dynamic = /^\[(\w+)\]$/.exec(name);
  if (dynamic) return { kind: "dynamic", name: dynamic[1]! };
  return { kind: "static", value: name };
}

/** The HTTP methods a route.ts exports (`export const GET`, `export async function POST`, `{ GET, POST }`). */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:const|async\s+function|function)\s+([A-Z]+)\b/g))
    found.add(m[1]!);
  for (const m of source.matchAll(/export\s+const\s*\{([^}]*)\}/g))
    for (const name of m[1]!.split(",")) found.add(name.trim());
  return METHODS.filter((method) => found.has(method));
}

export function appRoutes(dir = ROOT, segments: Segment[] = []): AppRoute[] {
  const routes: AppRoute[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name.startsWith("_")) continue;
      const segment = segmentOf(entry.name);
      routes.push(...appRoutes(full, segment ? [...segments, segment] : segments));
      continue;
    }
    const kind = /^(page|route)\.(tsx?|jsx?)$/.exec(entry.name)?.[1];
    if (!kind) continue;
    const pattern = `/${segments
      .map((s) => (s.kind === "static" ? s.value : s.kind === "dynamic" ? `[${s.name}]` : `[...${s.name}]`))
      .join("/")}`;
    const methods = kind === "page" ? ["GET"] : exportedMethods(readFileSync(full, "utf8"));
    routes.push({ pattern, segments, methods });
  }
  return routes.sort((a, b) => a.pattern.localeCompare(b.pattern));
}
