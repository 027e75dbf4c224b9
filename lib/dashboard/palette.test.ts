import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PANEL_BACKGROUNDS, TRACE_COLOURS } from "./palette";

/** WCAG 2.x relative luminance of an sRGB "#rrggbb" colour. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe("contrast", () => {
  it("follows the WCAG formula (black on white 21:1, the old very-low red 1.9:1 on slate-900)", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(contrast("#8B1A00", PANEL_BACKGROUNDS.dark)).toBeCloseTo(1.91, 2);
  });
});

describe("the trace's graphics (WCAG 1.4.11: at least 3:1 against what they are drawn on)", () => {
  const marks = {
    line: TRACE_COLOURS.line,
    targetBand: TRACE_COLOURS.targetBand,
    veryLowLine: TRACE_COLOURS.veryLowLine,
    veryHighLine: TRACE_COLOURS.veryHighLine,
    offScale: TRACE_COLOURS.offScale,
    alerts: TRACE_COLOURS.alerts,
  };
  for (const [name, colour] of Object.entries(marks)) {
    for (const [theme, background] of Object.entries(PANEL_BACKGROUNDS)) {
      it(`${name} ${colour} on the ${theme} panel ${background}`, () => {
        expect(contrast(colour, background)).toBeGreaterThanOrEqual(3);
      });
    }
  }
});

describe("the trace component", () => {
  // Its server-drawn layer, its interactive (recharts) layer, and what joins them.
  it.each(["GlucoseTrace.tsx", "TraceLayers.tsx", "TracePreview.tsx", "TraceInteractive.tsx"])(
    "takes every colour from the palette, so the checks above cover what it draws (%s)",
    (file) => {
      const source = readFileSync(path.join(import.meta.dirname, "../../components/charts", file), "utf8");
      expect(source.match(/#[0-9a-f]{3,8}\b/gi) ?? []).toEqual([]);
    },
  );
});
