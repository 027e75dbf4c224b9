import type { AlertNameV3, GlucoseUnit, TransmitterGenerationV3, TransmitterVariantV3 } from "@/lib/cgm";

/**
 * The eight users of the embedded sandbox and the parameters of their synthetic physiology
 * (lib/sandbox/data turns these into records).
 *
 * Why these people: each one exercises a part of the spec a client must handle.
 * - User1: the newest sensor (G7, smoothed values), good control, and a 6-day trip to a distant
 *   zone every 30 days, so displayTime jumps while systemTime runs on (AGP by displayTime).
 * - User2: frequent overnight lows, some below 54 and a few below 40 (sentinel 39), so an
 *   LBGI-based hypoglycemia risk comes out moderate or high; a second ("Night") alert schedule.
 * - User3: G5 in mmol/L, calibrations twice a day, no smoothed values (spec 2.1 rule 3).
 * - User4: G4 receiver, calibrations, runs high (sentinel 401 after missed boluses), and alert
 *   settings that change every day so that, over time, every allowed value of spec 2.4 is served.
 * - User5: wears a sensor only ~3 days in 10, so the hypoglycemia-risk minimum-data rule of spec
 *   2.6 is never met.
 * - User6: signed up, never uploaded: every data group is empty.
 * - User7: a G7 15-day sensor (15.5-day sessions) on an Android phone in Berlin: the device the
 *   service serves only through API v3 (service-v3-notes §1.1), so v1 and v2 see no data.
 * - User8: Dexcom ONE+ on an iPhone in Dublin, also v3 only: no events and no calibrations (empty
 *   arrays, notes §3.2, §3.3) and no urgent low, urgent low soon, rising or falling alerts (§3.5).
 *
 * Where the spec is silent:
 * - Home zones have daylight saving (displayTime = systemTime + the zone's offset in force).
 * - Sensor sessions: 10 days for G6/G7, 7 days for G4/G5, each followed by a 2 h warm-up.
 * - Glucose parameters are in mg/dL whatever the display unit; conversion happens when served.
 * - Alert settings are kept in mg/dL (the value ranges of spec 2.4 are given in mg/dL), also for
 *   the mmol/L users.
 */

export type Generation = "g7" | "g6" | "g5" | "g4";
export type DisplayDevice = "iOS" | "android" | "receiver";
export type V1Model =
  | "G5 Mobile App"
  | "G5 Receiver"
  | "G4 with Sharing Receiver"
  | "G4 Receiver"
  | "Unknown";
export type ExerciseIntensity = "light" | "medium" | "heavy";

/** A usual meal: local (display) time, day-to-day jitter, typical carbohydrates. */
export interface MealPlan {
  name: "breakfast" | "lunch" | "snack" | "dinner" | "lateSnack";
  /** Minutes after local midnight on a weekday. */
  minuteOfDay: number;
  /** Extra minutes on Saturday and Sunday (people sleep in). */
  weekendShiftMin: number;
  /** Standard deviation of the time, minutes. */
  jitterMin: number;
  carbs: number;
  skipProbability: number;
  /** Time constant of absorption (minutes; the absorption rate peaks at this time). */
  absorptionMin: number;
}

export interface ExercisePlan {
  subType: ExerciseIntensity;
  /** 0 = Sunday … 6 = Saturday. */
  weekdays: readonly number[];
  probability: number;
  minuteOfDay: number;
  jitterMin: number;
  minutes: readonly [number, number];
  /** Total fall of glucose caused by the session, mg/dL. */
  dropMgdl: readonly [number, number];
}

/** Planned lows: a slow fall to a target nadir, then (mostly) a treatment with fast carbs. */
export interface LowPlan {
  /** Probability per night (or per day for daytime lows). */
  probability: number;
  /** Onset of the fall, minutes after local midnight (ranges may pass 1440). */
  onsetMinute: readonly [number, number];
  descentMin: readonly [number, number];
  /** Nadir targets as [weight, lowest, highest] mg/dL, as the sensor would read them. */
  targets: ReadonlyArray<readonly [number, number, number]>;
  /** Nadirs below this are always treated; above it half of them recover on their own. */
  treatBelow: number;
  /** Minutes from the nadir to the treatment (asleep: longer). */
  treatDelayMin: readonly [number, number];
  /** Time constant (min) of the recovery of an untreated low. */
  recoveryMin: readonly [number, number];
  treatCarbs: readonly [number, number];
}

export interface GlucoseProfile {
  /** Fasting level the body returns to, mg/dL. */
  baseMgdl: number;
  /** Insulin sensitivity factor, mg/dL per unit. */
  isf: number;
  /** Insulin-to-carb ratio, grams per unit. */
  carbRatio: number;
  meals: readonly MealPlan[];
  /** Mean bolus as a share of the dose the meal needed (below 1: habitually under-doses). */
  bolusRatio: number;
  /** Relative standard deviation of a bolus against the dose the meal needed. */
  bolusErrorSd: number;
  missedBolusProbability: number;
  /** Minutes from the bolus to the meal start: negative is a pre-bolus. */
  bolusTimingMin: readonly [number, number];
  /** Dose resolution: 0.05 U for a pump, 0.5 U for a pen. */
  insulinIncrement: number;
  /** Early-morning rise (dawn phenomenon), mg/dL at its peak around 06:30 local. */
  dawnMgdl: number;
  /** Fall in the small hours (too much basal insulin), mg/dL at its deepest around 03:00 local. */
  nightDropMgdl: number;
  /** Amplitudes of slow random drift: day-to-day, over hours, within an hour (mg/dL). */
  driftMgdl: readonly [number, number, number];
  /** Sensor noise: slowly varying part and reading-to-reading part (mg/dL, standard deviations). */
  sensorNoiseMgdl: readonly [number, number];
  exercise: readonly ExercisePlan[];
  nightLows: LowPlan | null;
  dayLows: LowPlan | null;
  /** Daily probabilities of health events that are not scheduled. */
  health: {
    stress: number;
    illness: number;
    alcohol: number;
    cycle: boolean;
  };
  /** Share of what happened that the user also logs as an event. */
  loggingProbability: number;
  /**
   * Every event type and subtype at least once in every 14 local days (so in any 30-day window),
   * whatever the dice say.
   */
  everyEventKind: boolean;
  /**
   * Events only API v3 can carry (its bloodGlucose and notes types, notes §3.3), per day on
   * average: fingersticks logged in the app, and free-text notes. v1 and v2 never serve them.
   */
  v3OnlyEvents?: { meterChecksPerDay: number; notesPerDay: number };
  /** Calibrations per day (G4/G5): 0 or 2, plus the two that start each session. */
  calibrationsPerDay: 0 | 2;
  /** Probability per night of a compression artifact (the sensor is lain on). */
  compressionPerNight: number;
  /** Probability per reading-block (30 min) that a G4 shows no arrow. */
  noArrowProbability: number;
}

export interface SensorPlan {
  /** Days of one sensor session (after its warm-up). */
  sessionDays: number;
  /** "continuous": one session after the other; "scattered": ~3 days worn in every 10. */
  wear: "continuous" | "scattered";
  /** Readings sit at multiples of 5 minutes plus these seconds. */
  gridOffsetSeconds: number;
  /** Minutes from the history start to the first sensor insertion (a multiple of 5). */
  firstInsertionMin: number;
}

/** A trip every `periodDays`, `tripDays` long, the clock switching at the anchor's time of day. */
export interface TravelPlan {
  /** First switch to a destination zone (UTC ms); later trips follow every periodDays. */
  anchorMs: number;
  periodDays: number;
  tripDays: number;
  /** Destination of trip k is destinations[k % length]. */
  destinations: readonly string[];
}

export interface AlertValues {
  high: number;
  low: number;
  rise: number;
  fall: number;
  outOfRange: number;
  /** Which alerts are on (fixedLow always is). */
  enabled: { high: boolean; low: boolean; rise: boolean; fall: boolean; outOfRange: boolean };
  snooze: { high: number; low: number; rise: number; fall: number; outOfRange: number; fixedLow: number };
}

export interface AlertPlan {
  /** "fixed": the default values below never change; "rotating": new allowed values every day. */
  mode: "fixed" | "rotating";
  defaults: AlertValues;
  /** A second, enabled schedule (v2 only), in display time. */
  night: {
    startTime: string;
    endTime: string;
    daysOfWeek: ReadonlyArray<
      "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday"
    >;
    values: AlertValues;
  } | null;
  /**
   * A manual override the user switches on at set hours (v3's `override`, notes §3.4), on the
   * display clock: alerts then vibrate or stay quiet until `endTime`. Not modelled: none.
   */
  override?: {
    mode: "quiet" | "vibrate";
    startTime: string;
    endTime: string;
    /** 0 = Sunday … 6 = Saturday. */
    weekdays: readonly number[];
  };
}

/** How API v3 names the user's device and what the device can do (service-v3-notes §3, §4). */
export interface DeviceV3Plan {
  transmitterGeneration: TransmitterGenerationV3;
  /** Null for G4/G5, which the newer swagger's list (d1+, g6, g7, g715day) does not name. */
  variant: TransmitterVariantV3 | null;
  displayApp: string;
  /**
   * Sensor sessions one transmitter serves: G7, G7 15-day and ONE+ sensors carry their own
   * transmitter; a G6 transmitter lasts 90 days (9 sessions), a G5 one 3 months, a G4 one 6.
   */
  sessionsPerTransmitter: number;
  /** First characters of the printed transmitter serial (hashed into transmitterId). */
  serialPrefix: string;
  /** The alerts the device has, in the order it lists them. */
  alertNames: readonly AlertNameV3[];
  /** The G7 family's sound settings; null for devices without them. */
  sound: { theme: "modern" | "classic"; outputMode: "sound" | "vibrate" | "match" } | null;
}

export interface SandboxUser {
  username: string;
  description: string;
  unit: GlucoseUnit;
  generation: Generation;
  displayDevice: DisplayDevice;
  model: V1Model;
  homeTimeZone: string;
  /** User6 never uploaded anything. */
  hasData: boolean;
  sensor: SensorPlan;
  travel: TravelPlan | null;
  profile: GlucoseProfile;
  alerts: AlertPlan;
  device: DeviceV3Plan;
  /**
   * False for devices whose data the service serves only through v3 (G7 15-day, ONE+: notes
   * §1.1): v1 and v2 answer for them as for an account without data. User1's G7 predates v3 in
   * this sandbox and keeps its v1/v2 data, so the clients and tests of v2 keep theirs.
   */
  servedBeforeV3: boolean;
}

const WEEKDAYS = [1, 2, 3, 4, 5] as const;
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6] as const;
const h = (hours: number, minutes = 0) => hours * 60 + minutes;

const STANDARD_ALERTS: AlertValues = {
  high: 250,
  low: 70,
  rise: 3,
  fall: 3,
  outOfRange: 20,
  enabled: { high: true, low: true, rise: false, fall: false, outOfRange: true },
  snooze: { high: 120, low: 30, rise: 0, fall: 0, outOfRange: 0, fixedLow: 30 },
};

const NO_HEALTH = { stress: 0, illness: 0, alcohol: 0, cycle: false };

/** Alerts of each device family (notes §3.4, §3.5); G4/G5 call the fixed 55 mg/dL alarm fixedLow. */
const G6_G7_ALERTS: readonly AlertNameV3[] = [
  "urgentLow",
  "urgentLowSoon",
  "low",
  "high",
  "rise",
  "fall",
  "noReadings",
  "outOfRange",
];
const G4_G5_ALERTS: readonly AlertNameV3[] = ["fixedLow", "low", "high", "rise", "fall", "outOfRange"];
/** Dexcom ONE+ has no Urgent Low, Urgent Low Soon, Rising Fast or Falling Fast (notes §3.5). */
const ONE_PLUS_ALERTS: readonly AlertNameV3[] = ["low", "high", "noReadings", "outOfRange"];
const G7_SOUND = { theme: "modern", outputMode: "sound" } as const;

const G7_DEVICE: DeviceV3Plan = {
  transmitterGeneration: "g7",
  variant: "g7",
  displayApp: "G7",
  sessionsPerTransmitter: 1,
  serialPrefix: "3F",
  alertNames: G6_G7_ALERTS,
  sound: G7_SOUND,
};
const G6_DEVICE: DeviceV3Plan = {
  transmitterGeneration: "g6",
  variant: "g6",
  displayApp: "G6",
  sessionsPerTransmitter: 9,
  serialPrefix: "8G",
  alertNames: G6_G7_ALERTS,
  sound: null,
};

const BASE_PROFILE: GlucoseProfile = {
  baseMgdl: 140,
  isf: 45,
  carbRatio: 10,
  meals: [],
  bolusRatio: 1,
  bolusErrorSd: 0.12,
  missedBolusProbability: 0.05,
  bolusTimingMin: [-10, 5],
  insulinIncrement: 0.5,
  dawnMgdl: 20,
  nightDropMgdl: 0,
  driftMgdl: [15, 15, 6],
  sensorNoiseMgdl: [3, 1.5],
  exercise: [],
  nightLows: null,
  dayLows: null,
  health: NO_HEALTH,
  loggingProbability: 0.85,
  everyEventKind: false,
  calibrationsPerDay: 0,
  compressionPerNight: 0.08,
  noArrowProbability: 0,
};

function meal(
  name: MealPlan["name"],
  minuteOfDay: number,
  carbs: number,
  extra: Partial<MealPlan> = {},
): MealPlan {
  const snack = name === "snack" || name === "lateSnack";
  return {
    name,
    minuteOfDay,
    carbs,
    weekendShiftMin: name === "breakfast" ? 60 : 0,
    jitterMin: snack ? 40 : 25,
    skipProbability: snack ? 0.5 : 0.04,
    absorptionMin: snack ? 30 : 45,
    ...extra,
  };
}

export const SANDBOX_USERS: readonly SandboxUser[] = [
  {
    username: "SandboxUser1",
    description:
      "G7 on iPhone, mg/dL. Well controlled (about 80% in range). Every 30 days a 6-day trip to a far time zone.",
    unit: "mg/dL",
    generation: "g7",
    displayDevice: "iOS",
    model: "Unknown",
    homeTimeZone: "America/New_York",
    hasData: true,
    sensor: { sessionDays: 10, wear: "continuous", gridOffsetSeconds: 17, firstInsertionMin: h(15, 40) },
    travel: {
      // The first trip starts on 2025-01-09 at 14:00 UTC; then every 30 days, for 6 days.
      anchorMs: Date.UTC(2025, 0, 9, 14),
      periodDays: 30,
      tripDays: 6,
      destinations: ["Asia/Tokyo", "Europe/Athens", "Asia/Dubai"],
    },
    profile: {
      ...BASE_PROFILE,
      baseMgdl: 110,
      isf: 50,
      carbRatio: 11,
      meals: [
        meal("breakfast", h(7, 15), 45),
        meal("lunch", h(12, 30), 55),
        meal("snack", h(15, 45), 20),
        meal("dinner", h(19, 0), 70),
      ],
      bolusErrorSd: 0.12,
      missedBolusProbability: 0.02,
      bolusTimingMin: [-15, 10],
      insulinIncrement: 0.05,
      dawnMgdl: 15,
      driftMgdl: [14, 16, 5],
      sensorNoiseMgdl: [2.5, 1],
      exercise: [
        {
          subType: "light",
          weekdays: EVERY_DAY,
          probability: 0.35,
          minuteOfDay: h(17, 30),
          jitterMin: 60,
          minutes: [20, 45],
          dropMgdl: [8, 20],
        },
        {
          subType: "medium",
          weekdays: [2, 4, 6],
          probability: 0.7,
          minuteOfDay: h(6, 30),
          jitterMin: 20,
          minutes: [30, 50],
          dropMgdl: [20, 35],
        },
        {
          subType: "heavy",
          weekdays: [0],
          probability: 0.6,
          minuteOfDay: h(9, 30),
          jitterMin: 30,
          minutes: [60, 100],
          dropMgdl: [30, 45],
        },
      ],
      dayLows: {
        probability: 0.12,
        onsetMinute: [h(14, 0), h(17, 30)],
        descentMin: [45, 90],
        targets: [[1, 58, 68]],
        treatBelow: 70,
        treatDelayMin: [4, 15],
        recoveryMin: [60, 120],
        treatCarbs: [15, 20],
      },
      health: { stress: 0.04, illness: 0.01, alcohol: 0.06, cycle: true },
      loggingProbability: 0.97,
      everyEventKind: true,
      v3OnlyEvents: { meterChecksPerDay: 0.3, notesPerDay: 0.2 },
      compressionPerNight: 0.06,
    },
    device: G7_DEVICE,
    servedBeforeV3: true,
    alerts: {
      mode: "fixed",
      defaults: {
        ...STANDARD_ALERTS,
        high: 200,
        low: 75,
        enabled: { ...STANDARD_ALERTS.enabled, rise: true },
      },
      night: {
        startTime: "22:00:00",
        endTime: "06:00:00",
        daysOfWeek: ["sunday", "monday", "tuesday", "wednesday", "thursday"],
        values: {
          ...STANDARD_ALERTS,
          high: 250,
          low: 80,
          enabled: { high: true, low: true, rise: false, fall: false, outOfRange: false },
          snooze: { ...STANDARD_ALERTS.snooze, high: 180, low: 20 },
        },
      },
    },
  },
  {
    username: "SandboxUser2",
    description:
      "G6 on Android, mg/dL. Frequent overnight lows, some below 54 and a few below 40: moderate-to-high hypoglycemia risk.",
    unit: "mg/dL",
    generation: "g6",
    displayDevice: "android",
    model: "Unknown",
    homeTimeZone: "Europe/Berlin",
    hasData: true,
    sensor: { sessionDays: 10, wear: "continuous", gridOffsetSeconds: 143, firstInsertionMin: h(7, 25) },
    travel: null,
    profile: {
      ...BASE_PROFILE,
      baseMgdl: 114,
      isf: 55,
      carbRatio: 11,
      meals: [
        meal("breakfast", h(6, 45), 45),
        meal("lunch", h(12, 15), 60),
        meal("dinner", h(18, 45), 65),
        meal("lateSnack", h(21, 30), 20, { skipProbability: 0.4 }),
      ],
      bolusRatio: 1.06,
      bolusErrorSd: 0.16,
      missedBolusProbability: 0.04,
      bolusTimingMin: [-10, 10],
      insulinIncrement: 0.5,
      dawnMgdl: 22,
      nightDropMgdl: 25,
      driftMgdl: [12, 15, 6],
      sensorNoiseMgdl: [3, 1.5],
      exercise: [
        {
          subType: "light",
          weekdays: EVERY_DAY,
          probability: 0.3,
          minuteOfDay: h(18, 0),
          jitterMin: 45,
          minutes: [20, 40],
          dropMgdl: [8, 20],
        },
        {
          subType: "medium",
          weekdays: [1, 3],
          probability: 0.6,
          minuteOfDay: h(19, 30),
          jitterMin: 30,
          minutes: [40, 60],
          dropMgdl: [25, 40],
        },
        {
          subType: "heavy",
          weekdays: [6],
          probability: 0.5,
          minuteOfDay: h(10, 0),
          jitterMin: 40,
          minutes: [60, 120],
          dropMgdl: [35, 55],
        },
      ],
      nightLows: {
        probability: 0.9,
        onsetMinute: [h(0, 0), h(3, 30)],
        descentMin: [90, 180],
        targets: [
          [0.3, 48, 62],
          [0.45, 40, 50],
          [0.25, 30, 38],
        ],
        treatBelow: 60,
        treatDelayMin: [20, 70],
        recoveryMin: [90, 150],
        treatCarbs: [15, 25],
      },
      dayLows: {
        probability: 0.3,
        onsetMinute: [h(10, 0), h(16, 0)],
        descentMin: [40, 80],
        targets: [[1, 46, 64]],
        treatBelow: 70,
        treatDelayMin: [4, 15],
        recoveryMin: [60, 120],
        treatCarbs: [15, 20],
      },
      health: { stress: 0.05, illness: 0.01, alcohol: 0.12, cycle: true },
      loggingProbability: 0.9,
      everyEventKind: true,
      v3OnlyEvents: { meterChecksPerDay: 0.6, notesPerDay: 0.1 },
      compressionPerNight: 0.08,
    },
    device: G6_DEVICE,
    servedBeforeV3: true,
    alerts: {
      mode: "fixed",
      defaults: {
        ...STANDARD_ALERTS,
        high: 220,
        low: 80,
        enabled: { ...STANDARD_ALERTS.enabled, fall: true },
      },
      night: {
        startTime: "22:00:00",
        endTime: "06:00:00",
        daysOfWeek: ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"],
        values: {
          ...STANDARD_ALERTS,
          high: 270,
          low: 90,
          enabled: { high: true, low: true, rise: false, fall: true, outOfRange: true },
          snooze: { ...STANDARD_ALERTS.snooze, high: 240, low: 15 },
        },
      },
    },
  },
  {
    username: "SandboxUser3",
    description: "G5 Mobile App on iPhone, mmol/L. Calibrates about twice a day; G5 has no smoothed values.",
    unit: "mmol/L",
    generation: "g5",
    displayDevice: "iOS",
    model: "G5 Mobile App",
    homeTimeZone: "Europe/London",
    hasData: true,
    sensor: { sessionDays: 7, wear: "continuous", gridOffsetSeconds: 71, firstInsertionMin: h(19, 10) },
    travel: null,
    profile: {
      ...BASE_PROFILE,
      baseMgdl: 132,
      isf: 45,
      carbRatio: 9,
      meals: [
        meal("breakfast", h(7, 40), 40),
        meal("lunch", h(13, 0), 55),
        meal("snack", h(16, 0), 20),
        meal("dinner", h(19, 15), 70),
      ],
      bolusErrorSd: 0.14,
      missedBolusProbability: 0.05,
      bolusTimingMin: [-10, 10],
      dawnMgdl: 20,
      driftMgdl: [14, 15, 6],
      sensorNoiseMgdl: [5, 2],
      exercise: [
        {
          subType: "light",
          weekdays: EVERY_DAY,
          probability: 0.3,
          minuteOfDay: h(12, 30),
          jitterMin: 60,
          minutes: [20, 40],
          dropMgdl: [8, 18],
        },
        {
          subType: "medium",
          weekdays: [2, 5],
          probability: 0.5,
          minuteOfDay: h(18, 0),
          jitterMin: 30,
          minutes: [30, 60],
          dropMgdl: [20, 35],
        },
      ],
      dayLows: {
        probability: 0.08,
        onsetMinute: [h(11, 0), h(17, 0)],
        descentMin: [40, 90],
        targets: [[1, 55, 68]],
        treatBelow: 70,
        treatDelayMin: [4, 15],
        recoveryMin: [60, 120],
        treatCarbs: [15, 20],
      },
      health: { stress: 0.03, illness: 0.01, alcohol: 0.05, cycle: false },
      loggingProbability: 0.85,
      calibrationsPerDay: 2,
      compressionPerNight: 0.05,
    },
    alerts: { mode: "fixed", defaults: { ...STANDARD_ALERTS, high: 240, low: 70 }, night: null },
    device: {
      transmitterGeneration: "g5",
      variant: null,
      displayApp: "G5",
      sessionsPerTransmitter: 12,
      serialPrefix: "4",
      alertNames: G4_G5_ALERTS,
      sound: null,
    },
    servedBeforeV3: true,
  },
  {
    username: "SandboxUser4",
    description:
      "G4 with Share receiver, mg/dL. Calibrates twice a day, runs high (above 400 at times); alert settings change daily.",
    unit: "mg/dL",
    generation: "g4",
    displayDevice: "receiver",
    model: "G4 with Sharing Receiver",
    homeTimeZone: "America/Chicago",
    hasData: true,
    sensor: { sessionDays: 7, wear: "continuous", gridOffsetSeconds: 229, firstInsertionMin: h(2, 55) },
    travel: null,
    profile: {
      ...BASE_PROFILE,
      baseMgdl: 145,
      isf: 50,
      carbRatio: 8,
      meals: [
        meal("breakfast", h(7, 0), 45, { skipProbability: 0.2 }),
        meal("lunch", h(12, 0), 70),
        meal("snack", h(15, 30), 30, { skipProbability: 0.4 }),
        meal("dinner", h(18, 30), 85),
      ],
      bolusRatio: 0.93,
      bolusErrorSd: 0.12,
      missedBolusProbability: 0.05,
      bolusTimingMin: [-5, 20],
      dawnMgdl: 30,
      driftMgdl: [20, 20, 8],
      sensorNoiseMgdl: [6, 2.5],
      exercise: [
        {
          subType: "light",
          weekdays: WEEKDAYS,
          probability: 0.25,
          minuteOfDay: h(17, 30),
          jitterMin: 45,
          minutes: [15, 40],
          dropMgdl: [8, 20],
        },
        {
          subType: "heavy",
          weekdays: [6],
          probability: 0.2,
          minuteOfDay: h(9, 0),
          jitterMin: 60,
          minutes: [45, 90],
          dropMgdl: [25, 45],
        },
      ],
      dayLows: {
        probability: 0.05,
        onsetMinute: [h(11, 0), h(17, 0)],
        descentMin: [40, 90],
        targets: [[1, 50, 66]],
        treatBelow: 70,
        treatDelayMin: [4, 15],
        recoveryMin: [60, 120],
        treatCarbs: [15, 30],
      },
      health: { stress: 0.05, illness: 0.015, alcohol: 0.04, cycle: false },
      loggingProbability: 0.75,
      calibrationsPerDay: 2,
      compressionPerNight: 0.05,
      noArrowProbability: 0.03,
    },
    alerts: { mode: "rotating", defaults: STANDARD_ALERTS, night: null },
    device: {
      transmitterGeneration: "g4",
      variant: null,
      displayApp: "receiver",
      sessionsPerTransmitter: 26,
      serialPrefix: "6",
      alertNames: G4_G5_ALERTS,
      sound: null,
    },
    servedBeforeV3: true,
  },
  {
    username: "SandboxUser5",
    description:
      "G6 on iPhone, mg/dL. Wears a sensor only about 3 days in 10: too little data for a hypoglycemia-risk estimate.",
    unit: "mg/dL",
    generation: "g6",
    displayDevice: "iOS",
    model: "Unknown",
    homeTimeZone: "America/Denver",
    hasData: true,
    sensor: { sessionDays: 10, wear: "scattered", gridOffsetSeconds: 5, firstInsertionMin: h(16, 0) },
    travel: null,
    profile: {
      ...BASE_PROFILE,
      baseMgdl: 138,
      isf: 45,
      carbRatio: 10,
      meals: [
        meal("breakfast", h(7, 30), 40, { skipProbability: 0.15 }),
        meal("lunch", h(12, 15), 55),
        meal("dinner", h(18, 45), 70),
      ],
      bolusErrorSd: 0.15,
      missedBolusProbability: 0.07,
      dawnMgdl: 25,
      exercise: [
        {
          subType: "medium",
          weekdays: [1, 4],
          probability: 0.4,
          minuteOfDay: h(18, 0),
          jitterMin: 40,
          minutes: [30, 60],
          dropMgdl: [20, 35],
        },
      ],
      dayLows: {
        probability: 0.06,
        onsetMinute: [h(11, 0), h(17, 0)],
        descentMin: [40, 90],
        targets: [[1, 55, 68]],
        treatBelow: 70,
        treatDelayMin: [4, 15],
        recoveryMin: [60, 120],
        treatCarbs: [15, 20],
      },
      health: { stress: 0.03, illness: 0.01, alcohol: 0.03, cycle: false },
      loggingProbability: 0.6,
    },
    alerts: { mode: "fixed", defaults: STANDARD_ALERTS, night: null },
    device: G6_DEVICE,
    servedBeforeV3: true,
  },
  {
    username: "SandboxUser6",
    description: "G7 on iPhone, mmol/L. Signed up but never uploaded: no data at all.",
    unit: "mmol/L",
    generation: "g7",
    displayDevice: "iOS",
    model: "Unknown",
    homeTimeZone: "Australia/Sydney",
    hasData: false,
    sensor: { sessionDays: 10, wear: "continuous", gridOffsetSeconds: 0, firstInsertionMin: 0 },
    travel: null,
    profile: BASE_PROFILE,
    alerts: { mode: "fixed", defaults: STANDARD_ALERTS, night: null },
    device: G7_DEVICE,
    servedBeforeV3: true,
  },
  {
    username: "SandboxUser7",
    description:
      "G7 15-day sensor (15.5-day sessions) on Android, mg/dL, at home in Berlin. Served only through API v3, as the service serves G7 15-day data.",
    unit: "mg/dL",
    generation: "g7",
    displayDevice: "android",
    model: "Unknown",
    homeTimeZone: "Europe/Berlin",
    hasData: true,
    sensor: { sessionDays: 15.5, wear: "continuous", gridOffsetSeconds: 97, firstInsertionMin: h(8, 50) },
    travel: null,
    profile: {
      ...BASE_PROFILE,
      baseMgdl: 122,
      isf: 48,
      carbRatio: 10,
      meals: [
        meal("breakfast", h(6, 50), 40),
        meal("lunch", h(12, 15), 60),
        meal("snack", h(15, 30), 25),
        meal("dinner", h(18, 45), 55),
      ],
      bolusErrorSd: 0.13,
      missedBolusProbability: 0.04,
      bolusTimingMin: [-15, 5],
      insulinIncrement: 0.5,
      dawnMgdl: 18,
      nightDropMgdl: 10,
      driftMgdl: [14, 15, 6],
      sensorNoiseMgdl: [2.5, 1.2],
      exercise: [
        {
          subType: "light",
          weekdays: WEEKDAYS,
          probability: 0.5,
          minuteOfDay: h(7, 40),
          jitterMin: 10,
          minutes: [15, 25],
          dropMgdl: [8, 15],
        },
        {
          subType: "medium",
          weekdays: [3, 6],
          probability: 0.6,
          minuteOfDay: h(17, 30),
          jitterMin: 40,
          minutes: [40, 70],
          dropMgdl: [20, 40],
        },
        {
          subType: "heavy",
          weekdays: [0],
          probability: 0.4,
          minuteOfDay: h(10, 0),
          jitterMin: 45,
          minutes: [90, 150],
          dropMgdl: [35, 55],
        },
      ],
      nightLows: {
        probability: 0.15,
        onsetMinute: [h(1, 0), h(4, 0)],
        descentMin: [60, 120],
        targets: [
          [0.6, 56, 66],
          [0.4, 46, 54],
        ],
        treatBelow: 60,
        treatDelayMin: [10, 40],
        recoveryMin: [80, 140],
        treatCarbs: [15, 20],
      },
      dayLows: {
        probability: 0.15,
        onsetMinute: [h(10, 30), h(17, 0)],
        descentMin: [40, 80],
        targets: [[1, 52, 66]],
        treatBelow: 70,
        treatDelayMin: [4, 15],
        recoveryMin: [60, 120],
        treatCarbs: [15, 20],
      },
      health: { stress: 0.04, illness: 0.01, alcohol: 0.08, cycle: false },
      loggingProbability: 0.9,
      everyEventKind: true,
      v3OnlyEvents: { meterChecksPerDay: 0.4, notesPerDay: 0.3 },
      compressionPerNight: 0.07,
    },
    alerts: {
      mode: "fixed",
      defaults: {
        ...STANDARD_ALERTS,
        high: 240,
        low: 70,
        rise: 2,
        fall: 2,
        enabled: { high: true, low: true, rise: true, fall: true, outOfRange: true },
        snooze: { ...STANDARD_ALERTS.snooze, high: 90, low: 20 },
      },
      night: {
        startTime: "23:00:00",
        endTime: "06:30:00",
        daysOfWeek: ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"],
        values: {
          ...STANDARD_ALERTS,
          high: 280,
          low: 65,
          enabled: { high: true, low: true, rise: false, fall: false, outOfRange: false },
          snooze: { ...STANDARD_ALERTS.snooze, high: 240, low: 30 },
        },
      },
      // Meetings on weekday mornings: the phone vibrates instead of sounding.
      override: { mode: "vibrate", startTime: "09:00:00", endTime: "11:30:00", weekdays: WEEKDAYS },
    },
    device: {
      transmitterGeneration: "g715day",
      variant: "g715day",
      displayApp: "G7",
      sessionsPerTransmitter: 1,
      serialPrefix: "3F",
      alertNames: G6_G7_ALERTS,
      sound: { theme: "classic", outputMode: "match" },
    },
    servedBeforeV3: false,
  },
  {
    username: "SandboxUser8",
    description:
      "Dexcom ONE+ on iPhone, mmol/L, at home in Dublin. No events or calibrations, and no urgent low, urgent low soon, rising or falling alerts. Served only through API v3.",
    unit: "mmol/L",
    generation: "g7",
    displayDevice: "iOS",
    model: "Unknown",
    homeTimeZone: "Europe/Dublin",
    hasData: true,
    sensor: { sessionDays: 10, wear: "continuous", gridOffsetSeconds: 211, firstInsertionMin: h(20, 20) },
    travel: null,
    profile: {
      ...BASE_PROFILE,
      baseMgdl: 150,
      isf: 40,
      carbRatio: 9,
      meals: [
        meal("breakfast", h(8, 0), 45, { skipProbability: 0.1 }),
        meal("lunch", h(13, 0), 65),
        meal("dinner", h(18, 30), 75),
      ],
      bolusRatio: 0.95,
      bolusErrorSd: 0.18,
      missedBolusProbability: 0.06,
      bolusTimingMin: [-5, 15],
      dawnMgdl: 28,
      driftMgdl: [16, 18, 6],
      sensorNoiseMgdl: [3, 1.5],
      exercise: [
        {
          subType: "light",
          weekdays: EVERY_DAY,
          probability: 0.4,
          minuteOfDay: h(13, 30),
          jitterMin: 30,
          minutes: [20, 40],
          dropMgdl: [8, 20],
        },
      ],
      dayLows: {
        probability: 0.08,
        onsetMinute: [h(11, 0), h(17, 0)],
        descentMin: [40, 90],
        targets: [[1, 50, 66]],
        treatBelow: 70,
        treatDelayMin: [4, 15],
        recoveryMin: [60, 120],
        treatCarbs: [15, 20],
      },
      health: NO_HEALTH,
      // Dexcom ONE+ does not take events (notes §3.3): its meals and doses happen but are not logged.
      loggingProbability: 0,
      compressionPerNight: 0.05,
    },
    alerts: {
      mode: "fixed",
      defaults: {
        ...STANDARD_ALERTS,
        high: 250,
        low: 70,
        enabled: { high: true, low: true, rise: false, fall: false, outOfRange: true },
      },
      night: null,
    },
    device: {
      transmitterGeneration: "g7",
      variant: "d1+",
      displayApp: "D1G7",
      sessionsPerTransmitter: 1,
      serialPrefix: "3F",
      alertNames: ONE_PLUS_ALERTS,
      sound: G7_SOUND,
    },
    servedBeforeV3: false,
  },
];

const BY_NAME = new Map(SANDBOX_USERS.map((u) => [u.username.toLowerCase(), u]));

/** The sandbox user of that name (case-insensitive, as a login form would accept it), or null. */
export function findSandboxUser(username: string): SandboxUser | null {
  return BY_NAME.get(username.trim().toLowerCase()) ?? null;
}
