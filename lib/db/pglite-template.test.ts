import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { seedFromTemplate } from "./pglite-template";

let root: string;
let template: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "pglite-template-test-"));
  template = path.join(root, "template");
  mkdirSync(path.join(template, "base"), { recursive: true });
  writeFileSync(path.join(template, "PG_VERSION"), "17\n");
  writeFileSync(path.join(template, "base", "1"), "pages");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("seedFromTemplate", () => {
  it("copies the template into a data folder that does not exist yet, and leaves nothing beside it", () => {
    const dir = path.join(root, "data", "pglite");
    mkdirSync(path.dirname(dir));
    expect(seedFromTemplate(dir, template)).toBe(true);
    expect(readFileSync(path.join(dir, "PG_VERSION"), "utf8")).toBe("17\n");
    expect(readFileSync(path.join(dir, "base", "1"), "utf8")).toBe("pages");
    expect(readdirSync(path.dirname(dir))).toEqual(["pglite"]);
  });

  it("copies into an empty folder made earlier", () => {
    const dir = path.join(root, "pglite");
    mkdirSync(dir);
    expect(seedFromTemplate(dir, template)).toBe(true);
    expect(existsSync(path.join(dir, "PG_VERSION"))).toBe(true);
  });

  it("never touches a folder that holds a database: a later start keeps its data", () => {
    const dir = path.join(root, "pglite");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "PG_VERSION"), "17\n");
    writeFileSync(path.join(dir, "patients"), "kept");
    expect(seedFromTemplate(dir, template)).toBe(false);
    expect(readFileSync(path.join(dir, "patients"), "utf8")).toBe("kept");
    expect(existsSync(path.join(dir, "base"))).toBe(false);
  });

  it("does nothing without a template (a development server, or a build that made none)", () => {
    const dir = path.join(root, "pglite");
    expect(seedFromTemplate(dir, path.join(root, "no-template"))).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });
});
