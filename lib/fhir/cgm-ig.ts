/**
 * The codes, profiles and units of the HL7 FHIR Continuous Glucose Monitoring Implementation Guide
 * 1.0.0 (STU 1, canonical http://hl7.org/fhir/uv/cgm, FHIR 4.0.1), each as the IG's FSH source
 * defines it: github.com/HL7/cgm, input/fsh/profiles.fsh (the release of sushi-config.yaml
 * `version: 1.0.0`). Where a constant comes from is said next to it as "profiles.fsh: <name>", the
 * profile, RuleSet or inline CodeableConcept Instance that fixes it.
 *
 * Where the IG differs from what one might expect:
 * - The AGP PDF travels as the IG's CGM Summary PDF Report, a DiagnosticReport whose presentedForm
 *   holds the PDF (profile cgm-summary-pdf), not as a DocumentReference: the IG defines no
 *   DocumentReference profile, and its submission Bundle slices DiagnosticReport entries only.
 * - The summary's period is `effectivePeriod`, 1..1 with start and end 1..1 (RuleSet CGMSummaryBase).
 * - Every Observation has `subject` 1..1 (RuleSet ObservationBase).
 */

export const IG_CANONICAL = "http://hl7.org/fhir/uv/cgm";
export const IG_VERSION = "1.0.0";
export const LOINC = "http://loinc.org";
export const UCUM = "http://unitsofmeasure.org";
/** FHIR R4's observation-category code system; the IG's examples give every Observation `laboratory`. */
export const OBSERVATION_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category";
/** HL7 v2 table 0074; the IG's cgmSummaryPDFExample categorises the PDF report as `LAB`. */
export const DIAGNOSTIC_SERVICE_SECTION = "http://terminology.hl7.org/CodeSystem/v2-0074";
/** FHIR R4's data-absent-reason code system, for a metric the period cannot give (one reading: no CV). */
export const DATA_ABSENT_REASON = "http://terminology.hl7.org/CodeSystem/data-absent-reason";

/** `${IG_CANONICAL}/StructureDefinition/<Id>`: each profile's `Id:` line in profiles.fsh. */
const profile = (id: string) => `${IG_CANONICAL}/StructureDefinition/${id}`;
export const PROFILES = {
  /** profiles.fsh: Profile CGMDataSubmissionBundle (type = #transaction, timestamp 1..1). */
  bundle: profile("cgm-data-submission-bundle"),
  /** profiles.fsh: Profile CGMSummaryObservation (hasMember 6..*: one per metric below). */
  summary: profile("cgm-summary"),
  /** profiles.fsh: Profile CGMSummaryMeanGlucoseMassPerVolume. */
  meanGlucoseMass: profile("cgm-summary-mean-glucose-mass-per-volume"),
  /** profiles.fsh: Profile CGMSummaryTimesInRanges (five components, each 1..1). */
  timesInRanges: profile("cgm-summary-times-in-ranges"),
  /** profiles.fsh: Profile CGMSummaryGMI. */
  gmi: profile("cgm-summary-gmi"),
  /** profiles.fsh: Profile CGMSummaryCoefficientOfVariation. */
  cv: profile("cgm-summary-coefficient-of-variation"),
  /** profiles.fsh: Profile CGMSummaryDaysOfWear. */
  daysOfWear: profile("cgm-summary-days-of-wear"),
  /** profiles.fsh: Profile CGMSummarySensorActivePercentage. */
  sensorActive: profile("cgm-summary-sensor-active-percentage"),
  /** profiles.fsh: Profile CGMSummaryPDF (a DiagnosticReport; presentedForm application/pdf with data 1..1). */
  summaryPdf: profile("cgm-summary-pdf"),
  /** profiles.fsh: Profile CGMDevice (deviceName user-friendly-name 1..1, identifier 1..*). */
  device: profile("cgm-device"),
  /** profiles.fsh: Profile CGMSensorReadingMassPerVolume (effectiveDateTime 1..1). */
  sensorReadingMass: profile("cgm-sensor-reading-mass-per-volume"),
} as const;

/**
 * The LOINC codes the IG fixes. Codings carry no display: the IG fixes only system and code, and
 * its comments' names (quoted here) are not LOINC's display strings, which a validator checks.
 */
export const CODES = {
  /** profiles.fsh: Instance CGMSummaryWithLoinc, "Continuous glucose monitoring summary panel - Reporting Period"; also CGMSummaryPDF's code. */
  summary: "107931-8",
  /** profiles.fsh: Instance MeanGlucoseMassPerVolumeWithLoinc, "Glucose [Mass/volume] in Serum or Plasma by Continuous glucose monitoring". */
  meanGlucoseMass: "97507-8",
  /** profiles.fsh: Instance TimesInRangesLoinc, "Continuous glucose monitoring time in ranges panel". */
  timesInRanges: "106793-3",
  /** profiles.fsh: Instance TimeInVeryLowWithLoinc (the summary's veryLow, below 54 mg/dL). */
  timeInVeryLow: "104642-4",
  /** profiles.fsh: Instance TimeInLowWithLoinc (the summary's low, 54–69 mg/dL). */
  timeInLow: "104641-6",
  /** profiles.fsh: Instance TimeInTargetWithLoinc, "Continuous glucose monitoring time in range" (70–180 mg/dL). */
  timeInTarget: "97510-2",
  /** profiles.fsh: Instance TimeInHighWithLoinc (the summary's high, 181–250 mg/dL). */
  timeInHigh: "104640-8",
  /** profiles.fsh: Instance TimeInVeryHighWithLoinc (the summary's veryHigh, above 250 mg/dL). */
  timeInVeryHigh: "104639-0",
  /** profiles.fsh: Instance GMIWithLoinc, "Glucose management indicator by Continuous glucose monitoring". */
  gmi: "97506-0",
  /** profiles.fsh: Instance CVWithLoinc, "Coefficient of variation of glucose by Continuous glucose monitoring". */
  cv: "104638-2",
  /** profiles.fsh: Instance DaysOfWearWithLoinc, "Continuous glucose monitoring duration of use". */
  daysOfWear: "104636-6",
  /** profiles.fsh: Instance SensorActivePercentageWithLoinc, "Continuous glucose monitoring sensor wear time active". */
  sensorActive: "104637-4",
  /** profiles.fsh: Profile CGMSensorReadingMassPerVolume, `code = $LNC#99504-3`. */
  sensorReadingMass: "99504-3",
} as const;

/**
 * The units, UCUM code and the IG's human `unit` text: RuleSet GlucoseMassPerVolume
 * (`'mg/dL' "mg/dl"`), RuleSet QuantityPercent (`'%' "%"`), Profile CGMSummaryDaysOfWear
 * (`'d' "days"`).
 */
export const UNITS = {
  mgdl: { code: "mg/dL", unit: "mg/dl" },
  percent: { code: "%", unit: "%" },
  days: { code: "d", unit: "days" },
} as const;

/** CGMDevice's deviceName slice: profiles.fsh, `deviceName[cgmDeviceName].type = #user-friendly-name`. */
export const DEVICE_NAME_TYPE = "user-friendly-name";
