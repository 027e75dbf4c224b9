import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";

/**
 * What the running server keeps mapped for good (bench part `startup` measures its idle memory
 * against a 300 MB target). A next.config.ts is transpiled by SWC at every `next start`, which
 * loads SWC's 66 MB native binding into the server and keeps 24 MB of it resident; the config is
 * plain JavaScript so that no compiler is loaded to serve pages.
 */
describe("the server's memory", () => {
  it("holds no SWC compiler once started and serving", async () => {
    const res = await fetch(`${inject("baseUrl")}/api/health`);
    expect(res.ok).toBe(true);
    const maps = readFileSync(`/proc/${inject("serverPid")}/maps`, "utf8");
    const swc = maps.split("\n").filter((line) => /next-swc|@next\/swc/.test(line));
    expect(swc).toEqual([]);
  });
});
