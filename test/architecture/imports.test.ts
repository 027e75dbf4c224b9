import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, importsOf } from "./import-graph";
import { documentedLayers, folderCycles, layerViolations, type ModuleFacts, ruleViolations } from "./rules";

/**
 * The architecture's import rules, checked on the real sources: a forbidden import that comes back
 * fails here with the file and the rule it breaks (docs/architecture.md).
 */

const root = path.resolve(import.meta.dirname, "../..");
const facts: ModuleFacts = {
  serverOnly: (file) => {
    try {
      return /^import "server-only";/m.test(readFileSync(path.join(root, file), "utf8"));
    } catch {
      return false;
    }
  },
};
const graph = importGraph(root);

describe("the import rules", () => {
  it("reads the project's imports, aliases and relative paths resolved to files", () => {
    expect(graph.length).toBeGreaterThan(1000);
    const proxy = graph.filter((i) => i.from === "lib/api/cgm-proxy.ts");
    expect(proxy.some((i) => i.local && i.to.startsWith("lib/service-client/"))).toBe(true);
    expect(graph.some((i) => i.to === "zod" && !i.local)).toBe(true);
  });

  it("holds for every source file", () => {
    expect(ruleViolations(graph, facts)).toEqual([]);
  });

  it("leaves no two folders of lib/ importing each other, directly or round a loop", () => {
    expect(folderCycles(graph)).toEqual([]);
  });

  const layers = documentedLayers(readFileSync(path.join(root, "docs/architecture.md"), "utf8"));

  it("describes every folder of lib/ in docs/architecture.md, and each imports only the layers listed before it", () => {
    expect(layers).toContain("lib/cgm");
    expect(layers.indexOf("lib/cgm")).toBeLessThan(layers.indexOf("lib/api"));
    expect(layerViolations(graph, layers)).toEqual([]);
  });

  it("fails when a forbidden import comes back", () => {
    const file = "components/charts/Leak.tsx";
    const added = importsOf(
      root,
      file,
      'import type { ConnectionRef } from "@/lib/service-client/tokens";\nimport { db } from "../../lib/db";\n',
    );
    expect(ruleViolations(added, facts).map((v) => `${v.from} -> ${v.to}`)).toEqual([
      "components/charts/Leak.tsx -> lib/service-client/tokens.ts",
      "components/charts/Leak.tsx -> lib/db/index.ts",
    ]);
    const sandbox = importsOf(
      root,
      "lib/service-client/x.ts",
      'import { ensureApp } from "@/lib/sandbox/apps";',
    );
    expect(ruleViolations(sandbox, facts)).toHaveLength(1);
    const metrics = importsOf(root, "lib/metrics/x.ts", 'import { env } from "@/lib/env";');
    expect(ruleViolations(metrics, facts)).toHaveLength(1);
    const upward = importsOf(root, "lib/sync/x.ts", 'import { overview } from "@/lib/dashboard/overview";');
    expect(layerViolations(upward, layers)).toEqual([
      "lib/sync/x.ts -> lib/dashboard/overview.ts: lib/sync may not import lib/dashboard, a layer above it",
    ]);
    expect(layerViolations(importsOf(root, "lib/new-folder/x.ts", 'import "zod";'), layers)).toEqual([
      "lib/new-folder is not described in docs/architecture.md",
    ]);
    const loop = importsOf(root, "lib/cgm/x.ts", 'import { agp } from "@/lib/reports/agp/agp";');
    expect(
      folderCycles([...graph, ...loop, ...importsOf(root, "lib/reports/y.ts", 'import "@/lib/cgm";')]).length,
    ).toBeGreaterThan(0);
  });
});
