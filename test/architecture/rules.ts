import type { Import } from "./import-graph";

/**
 * The allowed directions between the project's folders (docs/architecture.md says why). Each rule
 * names the files it governs and the imports they may not make; `folderCycles` finds two folders
 * of lib/ that import each other, directly or round a longer loop.
 */

export interface Rule {
  name: string;
  governs: (file: string) => boolean;
  forbids: (i: Import, facts: ModuleFacts) => boolean;
}

export interface ModuleFacts {
  /** True for a module that begins `import "server-only"`: database, tokens, secrets, the service. */
  serverOnly: (file: string) => boolean;
}

const under =
  (...prefixes: string[]) =>
  (file: string) =>
    prefixes.some((p) => file.startsWith(p));

export const RULES: Rule[] = [
  {
    name: "the dashboard knows the service only over HTTP: lib/service-client, app/ (outside app/sandbox) and components/ never import lib/sandbox",
    governs: (f) =>
      under("lib/service-client/", "components/")(f) ||
      (f.startsWith("app/") && !f.startsWith("app/sandbox/")),
    forbids: (i) => i.local && i.to.startsWith("lib/sandbox/"),
  },
  {
    name: "components never import the database, token code or any server-only module, not even for a type",
    governs: under("components/"),
    forbids: (i, facts) => i.local && (i.to.startsWith("lib/db/") || facts.serverOnly(i.to)),
  },
  {
    name: "lib/cgm (the service's resources and units) imports nothing of the app",
    governs: under("lib/cgm/"),
    forbids: (i) => i.local && !i.to.startsWith("lib/cgm/"),
  },
  {
    name: "lib/metrics (glucose maths) imports nothing of the app but lib/cgm",
    governs: under("lib/metrics/"),
    forbids: (i) => i.local && !under("lib/metrics/", "lib/cgm/")(i.to),
  },
  {
    name: "inside lib/clinic, security (passwords, attempts, audit, markers) imports neither domain nor views, domain never imports views, and none of them imports clinic-day",
    governs: under("lib/clinic/security/", "lib/clinic/domain/", "lib/clinic/views/"),
    forbids: (i) =>
      i.local &&
      (i.to.startsWith("lib/clinic/clinic-day/") ||
        (!i.from.startsWith("lib/clinic/views/") && i.to.startsWith("lib/clinic/views/")) ||
        (i.from.startsWith("lib/clinic/security/") && i.to.startsWith("lib/clinic/domain/"))),
  },
];

export interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** Every import that breaks a rule. */
export function ruleViolations(imports: readonly Import[], facts: ModuleFacts, rules = RULES): Violation[] {
  return rules.flatMap((rule) =>
    imports
      .filter((i) => rule.governs(i.from) && rule.forbids(i, facts))
      .map((i) => ({ rule: rule.name, from: i.from, to: i.to })),
  );
}

/** The folder of lib/ a file is in ("lib/api"), or null outside lib/. */
export function libFolder(file: string): string | null {
  const parts = file.split("/");
  return parts[0] === "lib" && parts.length > 2 ? `lib/${parts[1]}` : null;
}

/**
 * Groups of lib/ folders that import one another round a loop (strongly connected components of
 * more than one folder, Tarjan's algorithm), each with the imports that make it.
 */
export function folderCycles(imports: readonly Import[]): Array<{ folders: string[]; imports: string[] }> {
  const edges = new Map<string, Map<string, string[]>>();
  for (const i of imports) {
    const a = libFolder(i.from);
    const b = i.local ? libFolder(i.to) : null;
    if (!a || !b || a === b) continue;
    const out = edges.get(a) ?? new Map<string, string[]>();
    out.set(b, [...(out.get(b) ?? []), `${i.from} -> ${i.to}`]);
    edges.set(a, out);
  }
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return groups.map((folders) => ({
    folders,
    imports: folders.flatMap((a) => folders.flatMap((b) => edges.get(a)?.get(b) ?? [])),
  }));
}

/** The layer of a file of lib/: its folder ("lib/api"), or the file itself at lib's root ("lib/errors.ts"). */
export function libLayer(file: string): string | null {
  const parts = file.split("/");
  if (parts[0] !== "lib" || parts.length < 2) return null;
  return parts.length > 2 ? `lib/${parts[1]}` : file;
}

/**
 * The layers of lib/ in the order docs/architecture.md lists them, bottom first: the first column
 * of its table's rows that name a folder or file of lib/.
 */
export function documentedLayers(markdown: string): string[] {
  return [...markdown.matchAll(/^\| `(lib\/[^`]+)`/gm)].map((m) => m[1]!);
}

/** Imports from a layer to one listed after it (a higher layer), and files in no listed layer. */
export function layerViolations(imports: readonly Import[], layers: readonly string[]): string[] {
  const rank = new Map(layers.map((l, i) => [l, i]));
  const found = new Set<string>();
  for (const i of imports) {
    const a = libLayer(i.from);
    if (!a) continue;
    if (!rank.has(a)) found.add(`${a} is not described in docs/architecture.md`);
    const b = i.local ? libLayer(i.to) : null;
    if (!b || a === b || !rank.has(a)) continue;
    if (!rank.has(b)) found.add(`${b} is not described in docs/architecture.md`);
    else if (rank.get(b)! > rank.get(a)!)
      found.add(`${i.from} -> ${i.to}: ${a} may not import ${b}, a layer above it`);
  }
  return [...found].sort();
}
