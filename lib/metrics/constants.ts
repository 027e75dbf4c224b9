/**
 * Every published constant used by lib/metrics, in one place. Glucose thresholds are in mg/dL.
 * A correction to a published coefficient is a one-line change here.
 */

/**
 * Glucose Management Indicator: GMI (%) = 3.31 + 0.02392 × mean glucose (mg/dL).
 * Bergenstal RM, Beck RW, Close KL, et al. Glucose Management Indicator (GMI): A New Term for
 * Estimating A1C From Continuous Glucose Monitoring. Diabetes Care 2018;41(11):2275–2280.
 */
export const GMI_INTERCEPT_PERCENT = 3.31;
export const GMI_SLOPE_PERCENT_PER_MGDL = 0.02392;

/**
 * Symmetrization of the blood glucose scale (mg/dL): f(BG) = 1.509 × ((ln BG)^1.084 − 5.381),
 * risk r(BG) = 10 × f(BG)². f is 0 at about 112.5 mg/dL, and r reaches about 100 at 20 and 600 mg/dL.
 * Kovatchev BP, Cox DJ, Gonder-Frederick LA, Clarke WL. Symmetrization of the blood glucose
 * measurement scale and its applications. Diabetes Care 1997;20(11):1655–1658.
 */
export const BG_RISK_SCALE = 1.509;
export const BG_RISK_EXPONENT = 1.084;
export const BG_RISK_OFFSET = 5.381;
export const BG_RISK_FACTOR = 10;

/**
 * Upper limits (inclusive) of the LBGI risk categories: minimal ≤ 1.1 < low ≤ 2.5 < moderate ≤ 5.0 <
 * high. Kovatchev BP, Cox DJ, Gonder-Frederick LA, Young-Hyman D, Schlundt D, Clarke W. Assessment of
 * risk for severe hypoglycemia among adults with IDDM: validation of the low blood glucose index.
 * Diabetes Care 1998;21(11):1870–1875 (restated in Kovatchev BP et al., Diabetes Technol Ther
 * 2003;5(5):817–828).
 */
export const LBGI_MINIMAL_MAX = 1.1;
export const LBGI_LOW_MAX = 2.5;
export const LBGI_MODERATE_MAX = 5.0;

/**
 * The five glycemic ranges of the international consensus on Time in Range (mg/dL):
 * very low < 54; low 54 to < 70; in range 70 to 180 inclusive; high > 180 to 250 inclusive;
 * very high > 250.
 * Battelino T, Danne T, Bergenstal RM, et al. Clinical Targets for Continuous Glucose Monitoring
 * Data Interpretation: Recommendations From the International Consensus on Time in Range.
 * Diabetes Care 2019;42(8):1593–1603.
 */
export const VERY_LOW_BELOW_MGDL = 54;
export const LOW_BELOW_MGDL = 70;
export const IN_RANGE_MAX_MGDL = 180;
export const HIGH_MAX_MGDL = 250;

/**
 * Glycemia Risk Index: hypo component = VLow + 0.8 × Low; hyper component = VHigh + 0.5 × High;
 * GRI = 3.0 × hypo + 1.6 × hyper = 3.0 VLow + 2.4 Low + 1.6 VHigh + 0.8 High, capped at 100
 * (all in percent of readings). Zones A–E are its quintiles: A 0–20, B 20–40, C 40–60, D 60–80,
 * E 80–100.
 * Klonoff DC, Wang J, Rodbard D, et al. A Glycemia Risk Index (GRI) of Hypoglycemia and
 * Hyperglycemia for Continuous Glucose Monitoring Validated by Clinician Ratings.
 * J Diabetes Sci Technol 2023;17(5):1226–1242.
 */
export const GRI_LOW_WEIGHT_IN_HYPO = 0.8;
export const GRI_HIGH_WEIGHT_IN_HYPER = 0.5;
export const GRI_HYPO_WEIGHT = 3.0;
export const GRI_HYPER_WEIGHT = 1.6;
export const GRI_MAX = 100;
export const GRI_ZONE_WIDTH = 20;
/**
 * The GRI grid's axes as the AGP report v4 and Klonoff 2023 (Figure 5) draw them: the hypoglycaemia
 * component from 0 to 30 % across, the hyperglycaemia component from 0 to 60 % up.
 */
export const GRI_GRID_HYPO_MAX = 30;
export const GRI_GRID_HYPER_MAX = 60;

/**
 * Coefficient of variation at or below which glycemia counts as stable (%).
 * Danne T, Nimri R, Battelino T, et al. International Consensus on Use of Continuous Glucose
 * Monitoring. Diabetes Care 2017;40(12):1631–1640.
 */
export const CV_STABLE_MAX_PERCENT = 36;

/**
 * The target range in pregnancy with type 1 diabetes, both ends inclusive (consensus on Time in
 * Range 2019, Battelino et al., Diabetes Care 2019;42:1593–1603, Figure 3).
 */
export const PREGNANCY_RANGE_MGDL = { low: 63, high: 140 } as const;

/**
 * Sensor active time (%) below which the consensus does not trust a period's other metrics: at
 * least 70 % of 14 days. Battelino T et al. Diabetes Care 2019;42(8):1593–1603.
 */
export const SENSOR_ACTIVE_MIN_PERCENT = 70;

/**
 * Time in tight range: 70 to 140 mg/dL, both inclusive (percent of readings).
 * Battelino T, Alexander CM, Amiel SA, et al. Continuous glucose monitoring and metrics for clinical
 * trials: an international consensus statement. Lancet Diabetes Endocrinol 2023;11(1):42–57.
 */
export const TIGHT_RANGE_MIN_MGDL = 70;
export const TIGHT_RANGE_MAX_MGDL = 140;

/**
 * CGM-defined episodes of the same 2023 consensus, with the defaults of its research reference
 * implementation, the R package iglu 4.3 (`episode_calculation`): an episode starts after at least
 * 15 minutes beyond a threshold (the thresholds are the ranges' edges above: < 70, < 54, > 180,
 * > 250) and ends after at least 15 minutes back; extended hypoglycaemia needs more than 120 minutes
 * below 70. The readings are put on a regular grid first, interpolating across gaps of at most
 * 45 minutes and not across longer ones. See lib/metrics/episodes.ts.
 */
export const EPISODE_MIN_DURATION_MINUTES = 15;
export const EPISODE_END_DURATION_MINUTES = 15;
export const EXTENDED_HYPO_MINUTES = 120;
export const EPISODE_MAX_INTERPOLATED_GAP_MINUTES = 45;

/** Night on the patient's clock for the share of hypoglycaemia at night: 00:00 to 06:00. */
export const NIGHT_START_MINUTE = 0;
export const NIGHT_END_MINUTE = 6 * 60;

/** Minutes in a day of the patient's clock (the AGP's profile, the episodes' grid). */
export const MINUTES_PER_DAY = 1440;
