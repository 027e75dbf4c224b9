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

export const RANGE_LABELS: Record<
  ConsensusRange,
  { name: string; mgdl: string; mmoll: string; target: string }
> = {
  veryLow: { name: "Very low", mgdl: "below 54", mmoll: "below 3.0", target: "under 1%" },
  low: { name: "Low", mgdl: "54–69", mmoll: "3.0–3.8", target: "under 4%" },
  inRange: { name: "In range", mgdl: "70–180", mmoll: "3.9–10.0", target: "over 70%" },
  high: { name: "High", mgdl: "181–250", mmoll: "10.1–13.9", target: "under 25%" },
  veryHigh: { name: "Very high", mgdl: "above 250", mmoll: "above 13.9", target: "under 5%" },
};

export const RANGE_ORDER: readonly ConsensusRange[] = ["veryHigh", "high", "inRange", "low", "veryLow"];

/** Trace colours: the line, the target band, and markers. */
export const TRACE_COLOURS = {
  line: "#0072B2",
  targetBand: "#009E73",
  // The text colour: black diamonds vanished on the dark theme's background (WCAG 1.4.11).
  calibration: "currentColor",
  events: { carbs: "#E69F00", insulin: "#0072B2", exercise: "#009E73", health: "#CC79A7" },
} as const;
