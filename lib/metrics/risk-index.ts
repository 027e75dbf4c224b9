import {
  BG_RISK_EXPONENT,
  BG_RISK_FACTOR,
  BG_RISK_OFFSET,
  BG_RISK_SCALE,
  LBGI_LOW_MAX,
  LBGI_MINIMAL_MAX,
  LBGI_MODERATE_MAX,
} from "./constants";

/**
 * Low and High Blood Glucose Indices (LBGI, HBGI) on Kovatchev's symmetrized glucose scale.
 *
 * Kovatchev BP, Cox DJ, Gonder-Frederick LA, Clarke WL. Symmetrization of the blood glucose
 * measurement scale and its applications. Diabetes Care 1997;20(11):1655–1658:
 *   f(BG) = 1.509 × ((ln BG)^1.084 − 5.381)     (BG in mg/dL; f = 0 at about 112.5 mg/dL)
 *   r(BG) = 10 × f(BG)²                           (0 … about 100 over 20 … 600 mg/dL)
 *   rl(BG) = r(BG) when f(BG) < 0, else 0;  rh(BG) = r(BG) when f(BG) > 0, else 0
 * Kovatchev BP et al. Assessment of risk for severe hypoglycemia among adults with IDDM: validation
 * of the low blood glucose index. Diabetes Care 1998;21(11):1870–1875:
 *   LBGI = (1/n) Σ rl(BGᵢ);  HBGI = (1/n) Σ rh(BGᵢ)   (the mean over all n readings)
 *
 * Values are mg/dL (convert mmol/L first); the sentinels 39 and 401 take part as they are.
 * A value below 1 mg/dL is not a glucose reading (ln BG < 0 has no real power) and throws a
 * RangeError. No readings give null.
 */

export type LbgiRiskCategory = "minimal" | "low" | "moderate" | "high";

function checkGlucose(bgMgdl: number): void {
  if (!(bgMgdl >= 1) || !Number.isFinite(bgMgdl)) {
    throw new RangeError(`blood glucose must be a finite value of at least 1 mg/dL, got ${bgMgdl}`);
  }
}

/** The symmetrizing transform f(BG) = 1.509 × ((ln BG)^1.084 − 5.381), BG in mg/dL. */
export function symmetrizedGlucose(bgMgdl: number): number {
  checkGlucose(bgMgdl);
  return BG_RISK_SCALE * (Math.log(bgMgdl) ** BG_RISK_EXPONENT - BG_RISK_OFFSET);
}

/** The risk r(BG) = 10 × f(BG)². */
export function glucoseRisk(bgMgdl: number): number {
  return BG_RISK_FACTOR * symmetrizedGlucose(bgMgdl) ** 2;
}

/** The low-glucose risk rl(BG): r(BG) when f(BG) < 0, else 0. */
export function lowGlucoseRisk(bgMgdl: number): number {
  return cachedRisk(LOW_RISK_CACHE, bgMgdl, computeLowRisk);
}

/** The high-glucose risk rh(BG): r(BG) when f(BG) > 0, else 0. */
export function highGlucoseRisk(bgMgdl: number): number {
  return cachedRisk(HIGH_RISK_CACHE, bgMgdl, computeHighRisk);
}

// Readings are mostly whole mg/dL between 39 and 401: their risks are computed once.
const LOW_RISK_CACHE = new Float64Array(402).fill(Number.NaN);
const HIGH_RISK_CACHE = new Float64Array(402).fill(Number.NaN);

function cachedRisk(cache: Float64Array, bgMgdl: number, compute: (bg: number) => number): number {
  if (Number.isInteger(bgMgdl) && bgMgdl >= 1 && bgMgdl < cache.length) {
    const cached = cache[bgMgdl]!;
    if (!Number.isNaN(cached)) return cached;
    const risk = compute(bgMgdl);
    cache[bgMgdl] = risk;
    return risk;
  }
  return compute(bgMgdl);
}

function computeLowRisk(bgMgdl: number): number {
  const f = symmetrizedGlucose(bgMgdl);
  return f < 0 ? BG_RISK_FACTOR * f ** 2 : 0;
}

function computeHighRisk(bgMgdl: number): number {
  const f = symmetrizedGlucose(bgMgdl);
  return f > 0 ? BG_RISK_FACTOR * f ** 2 : 0;
}

function meanOf(values: readonly number[], risk: (bg: number) => number): number | null {
  if (values.length === 0) return null;
  let total = 0;
  for (const v of values) total += risk(v);
  return total / values.length;
}

/** Low Blood Glucose Index, the mean of rl over all readings (mg/dL); null for no readings. */
export function lbgi(valuesMgdl: readonly number[]): number | null {
  return meanOf(valuesMgdl, lowGlucoseRisk);
}

/** High Blood Glucose Index, the mean of rh over all readings (mg/dL); null for no readings. */
export function hbgi(valuesMgdl: readonly number[]): number | null {
  return meanOf(valuesMgdl, highGlucoseRisk);
}

/**
 * Kovatchev's LBGI risk categories (Diabetes Care 1998;21:1870–1875, see constants.ts):
 * minimal LBGI ≤ 1.1; low 1.1 < LBGI ≤ 2.5; moderate 2.5 < LBGI ≤ 5.0; high LBGI > 5.0.
 */
export function lbgiRiskCategory(lbgiValue: number): LbgiRiskCategory {
  if (lbgiValue <= LBGI_MINIMAL_MAX) return "minimal";
  if (lbgiValue <= LBGI_LOW_MAX) return "low";
  if (lbgiValue <= LBGI_MODERATE_MAX) return "moderate";
  return "high";
}
