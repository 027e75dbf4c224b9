import { TREND_DESCRIPTIONS, type Trend } from "@/lib/cgm/trend";

/** One glyph per trend of the spec; the three without an arrow look unlike any arrow. */
const GLYPHS: Record<Trend, string> = {
  doubleUp: "⇈",
  singleUp: "↑",
  fortyFiveUp: "↗",
  flat: "→",
  fortyFiveDown: "↘",
  singleDown: "↓",
  doubleDown: "⇊",
  none: "–",
  notComputable: "?",
  rateOutOfRange: "⇕",
};

export function TrendArrow({ trend, className = "" }: { trend: Trend | null; className?: string }) {
  const t = trend ?? "none";
  return (
    <span role="img" aria-label={TREND_DESCRIPTIONS[t]} title={TREND_DESCRIPTIONS[t]} className={className}>
      {GLYPHS[t]}
    </span>
  );
}
