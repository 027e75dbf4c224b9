import { describe, expect, it } from "vitest";
import { METHODS_ENTRIES, methodsText } from "./methods";

/** A path of this repository's source ("lib/metrics/gmi.ts", "components/…tsx", "app/…"). */
const SOURCE_PATH = /\b(?:lib|app|components|scripts|test)\/[\w./-]+|\.tsx?\b/;

describe("the methods note", () => {
  it("cites published sources only, never a file of the app's source (reports are filed in health records)", () => {
    for (const e of METHODS_ENTRIES) {
      expect(`${e.term} ${e.definition} ${e.source}`, e.term).not.toMatch(SOURCE_PATH);
    }
    expect(methodsText("a report")).not.toMatch(SOURCE_PATH);
  });

  it("still names a source for every entry", () => {
    for (const e of METHODS_ENTRIES) expect(e.source.trim(), e.term).not.toBe("");
  });
});
