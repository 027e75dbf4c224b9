import type { ConsensusRange } from "@/lib/metrics";

/**
 * Colours of the five consensus ranges, from the Okabe–Ito palette (distinguishable with the common
 * colour-vision deficiencies) and ordered dark-to-light away from the target so that even in grey
 * the bands keep their order. Colour never carries meaning alone: every band is also labelled.
 */
export const RANGE_COLOURS: Record<ConsensusRange, string> = {
  veryLow: "#8B1A00",
  low: "#D55E00",
  inRange: "#009E73",
  high: "#E69F00",
  veryHigh: "#CC79A7",
};

/**
 * The bands' names. No goal per band: the consensus goals are cumulative (below 70 includes below
 * 54), so they are judged on their own (lib/metrics/goals.ts), never beside a single band.
 */
export const RANGE_LABELS: Record<ConsensusRange, { name: string }> = {
  veryLow: { name: "Very low" },
  low: { name: "Low" },
  inRange: { name: "In range" },
  high: { name: "High" },
  veryHigh: { name: "Very high" },
};

export const RANGE_ORDER: readonly ConsensusRange[] = ["veryHigh", "high", "inRange", "low", "veryLow"];

/**
 * The trace's warning red: the very-low line (54 mg/dL) and the LOW/HIGH markers at the chart's edges.
 * The very-low band's #8B1A00 is 1.9:1 on the dark panel (slate-900), below the 3:1 WCAG 1.4.11 asks
 * of graphics; this red is 4.6:1 on white and 3.8:1 on slate-900, so one colour serves both themes
 * (and paper). It is the red of a colour-blind-safe red/blue pair, apart from the line's blue.
 */
const TRACE_WARNING_RED = "#DC3220";

/** Trace colours: the line, the target band, and markers. */
export const TRACE_COLOURS = {
  line: "#0072B2",
  targetBand: "#009E73",
  veryLowLine: TRACE_WARNING_RED,
  veryHighLine: "#CC79A7",
  // LOW and HIGH share the colour; their triangles point out of the chart, down at the bottom edge
  // and up at the top, so they differ by more than position.
  offScale: TRACE_WARNING_RED,
  // The text colour: black diamonds vanished on the dark theme's background (WCAG 1.4.11).
  calibration: "currentColor",
  // API v3's meter readings and notes (and types the app does not know): sky blue, and the text
  // colour, which keeps them visible in both themes.
  events: {
    carbs: "#E69F00",
    insulin: "#0072B2",
    exercise: "#009E73",
    health: "#CC79A7",
    bloodGlucose: "#56B4E9",
    notes: "currentColor",
    unknown: "currentColor",
  },
  // The alerts that sounded (API v3): the warning red, drawn as stars on their own row.
  alerts: TRACE_WARNING_RED,
} as const;

/** The backgrounds the trace is drawn on: the panel in the light theme and in the dark (slate-900). */
export const PANEL_BACKGROUNDS = { light: "#ffffff", dark: "#0f172a" } as const;
