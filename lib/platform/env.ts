import "server-only";
import { z } from "zod";
import { DEFAULT_MAX_REQUEST_DAYS } from "@/lib/cgm/window-bounds";

/** The API versions the dashboard can read the service's data with. */
export const CGM_API_VERSIONS = ["v2", "v3"] as const;
export type CgmApiVersion = (typeof CGM_API_VERSIONS)[number];

/**
 * The service's regions (service-v3-notes.md §1.3): each its own host, credentials and users (a
 * patient's account exists in one region only, §5 item 11). `sandbox` is the service's own
 * sandbox; `embedded` this app's (under APP_URL/sandbox).
 */
export const CGM_REGIONS = ["embedded", "us", "ous", "jp", "sandbox"] as const;
export type CgmRegion = (typeof CGM_REGIONS)[number];

export const REGION_BASE_URLS: Record<Exclude<CgmRegion, "embedded">, string> = {
  us: "https://api.dexcom.com",
  ous: "https://api.dexcom.eu",
  jp: "https://api.dexcom.jp",
  sandbox: "https://sandbox-api.dexcom.com",
};

/**
 * How late each region releases readings, in minutes (notes §1.6: about 1 hour for US users and 3
 * hours outside the US; the service's own sandbox is not documented, and is taken as the longer,
 * so a page never warns of a delay the service may have by design). The embedded sandbox has none.
 */
export const REGION_DATA_DELAY_MINUTES: Record<CgmRegion, number> = {
  embedded: 0,
  us: 60,
  ous: 180,
  jp: 180,
  sandbox: 180,
};

/**
 * The whole configuration, validated once. Every environment variable the app reads is here,
 * so the README's configuration table and this schema must agree.
 */
const onOff = z.enum(["on", "off"]);
const positiveInt = z.coerce.number().int().positive();

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: positiveInt.max(65535).default(3000),
    APP_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default(".data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// or postgresql:// URL")
      .optional(),
    // Where the service is: a region's preset (REGION_BASE_URLS), or the embedded sandbox when
    // neither this nor CGM_API_BASE_URL is set. CGM_API_BASE_URL, when set, is the address used.
    CGM_REGION: z
      .enum(CGM_REGIONS, { error: `CGM_REGION must be one of ${CGM_REGIONS.join(", ")}` })
      .optional(),
    CGM_API_BASE_URL: z.url().optional(),
    // The API version the dashboard reads the service's data with. v3 by default: the real
    // service's current one, the only one that serves G6, G7 and Dexcom ONE data; v2 (kept for
    // research projects) also has the service's statistics endpoint.
    CGM_API_VERSION: z
      .enum(CGM_API_VERSIONS, { error: `CGM_API_VERSION must be one of ${CGM_API_VERSIONS.join(", ")}` })
      .default("v3"),
    SANDBOX: onOff.optional(),
    SANDBOX_ACCESS_TOKEN_TTL: positiveInt.default(7200),
    SANDBOX_AUTH_CODE_TTL: positiveInt.default(60),
    // Fault injection and the other per-app test controls: off unless asked for, since they let
    // anyone holding an app's secret disturb every user of that app.
    SANDBOX_FAULTS: onOff.default("off"),
    CGM_CLIENT_ID: z.string().min(1).optional(),
    CGM_CLIENT_SECRET: z.string().min(1).optional(),
    CGM_MAX_WINDOW_DAYS: positiveInt.max(90).default(30),
    // The longest window one request may read (lib/cgm/window-bounds.ts). Never less than the
    // reports' 90 days, which the dashboard's own views ask for; at most a year, which with
    // 30-day chunks is 13 calls.
    CGM_MAX_REQUEST_DAYS: positiveInt
      .min(
        DEFAULT_MAX_REQUEST_DAYS,
        `CGM_MAX_REQUEST_DAYS may not be under ${DEFAULT_MAX_REQUEST_DAYS}: the dashboard's own views read ${DEFAULT_MAX_REQUEST_DAYS}-day windows`,
      )
      .max(366, "CGM_MAX_REQUEST_DAYS may be at most 366")
      .default(DEFAULT_MAX_REQUEST_DAYS),
    // Service calls one signed-in user's requests may make per minute (lib/service-client/
    // call-budget.ts), retries and chunks included; past it the API answers 429. A 90-day view
    // is about a dozen calls, so the default lets a person click through pages freely.
    CGM_USER_CALLS_PER_MINUTE: positiveInt.max(60_000).default(120),
    // The service releases readings after a delay (the real one: about 1 to 3 hours); pages warn
    // only when the newest reading is older than this plus 15 minutes.
    CGM_DATA_DELAY_MINUTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .optional(),
    // How long a started sign-in may take at the service; never more than 15 minutes.
    SIGN_IN_ATTEMPT_TTL_S: positiveInt
      .max(900, "SIGN_IN_ATTEMPT_TTL_S may be at most 900 (15 minutes)")
      .default(900),
    // How long a clinician's invitation link works; never more than 7 days (the default).
    CLINIC_INVITATION_TTL_S: positiveInt
      .max(604_800, "CLINIC_INVITATION_TTL_S may be at most 604800 (7 days)")
      .default(604_800),
    // The AGP PDF is printed by headless Chromium, which opens the report page at this address
    // (default APP_URL; set it when the server cannot reach its own public address).
    CHROMIUM_PATH: z.string().min(1).default("/usr/bin/chromium"),
    PDF_RENDER_URL: z.url().optional(),
    // Background sync (lib/sync, `npm run sync`). A connection's first sync reads this many days
    // back from its newest record; later ones re-read this many minutes before the newest synced
    // record, so that smoothed values filled in late and v2 event deletions are applied.
    SYNC_BACKFILL_DAYS: positiveInt.max(3650).default(90),
    SYNC_OVERLAP_MINUTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(60),
    // A deleted v2 event keeps its systemTime, so a sync that reads events only when a newer one
    // arrives would miss the deletion of the last entries. At most once per this many minutes a
    // sync re-reads this many hours of events back from the newest one (free when events are read
    // anyway; otherwise one more call). 0 minutes: never.
    SYNC_EVENTS_RECHECK_MINUTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 60)
      .default(60),
    SYNC_EVENTS_RECHECK_HOURS: positiveInt.max(30 * 24).default(24),
    // Connections synced at once by one process (each sync makes its calls one after another).
    SYNC_CONCURRENCY: positiveInt.max(256).default(4),
    // Minutes between passes of `npm run sync -- --watch` and of the in-process scheduler.
    SYNC_INTERVAL_MINUTES: positiveInt.max(24 * 60).default(5),
    // The sync's service calls per hour, shared by every process of this app registration (paced
    // through the database, lib/sync/rate-limit.ts); "off" for none. The real service allows 60,000
    // calls per app per hour: the default leaves a third of it to page views.
    SYNC_RATE_LIMIT_PER_HOUR: z
      .union([z.literal("off"), positiveInt])
      .default(40_000)
      .transform((v) => (v === "off" ? null : v)),
    // Hours between two fetches of a clinic patient's v2 statistics by the sync (the service's
    // hypoglycemia risk of the last 14 days, shown in the population view): one extra call per
    // patient this often, none in the passes between.
    SYNC_STATISTICS_HOURS: positiveInt.max(7 * 24).default(6),
    // "on": every server process also runs sync passes (several may: a connection is synced by
    // one at a time).
    SYNC_IN_PROCESS: onOff.default("off"),
    // Clinic days (lib/clinic/clinic-day): AGP PDFs printed at once by one process's background
    // runner (each holds a Chromium page in memory), and how long an item's lease lasts before a
    // restarted or another process takes it over (longer than one render: 20 s at most).
    CLINIC_DAY_CONCURRENCY: positiveInt.max(8).default(2),
    CLINIC_DAY_LEASE_SECONDS: positiveInt.min(30).max(3600).default(120),
    // "off": this process runs no clinic-day jobs (another process of the same database does).
    CLINIC_DAY_IN_PROCESS: onOff.default("on"),
    // Hours a finished clinic day's PDFs are kept: then they are deleted and its download says it
    // expired (a packet holds health data of many patients; it is made for one day's clinic).
    // Fractions are taken (0.5: half an hour).
    CLINIC_DAY_RETENTION_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 365)
      .default(72),
    AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
    TOKEN_ENCRYPTION_KEY: z
      .string()
      .refine((k) => Buffer.from(k, "base64").length === 32, {
        message: "TOKEN_ENCRYPTION_KEY must be 32 random bytes in base64 (openssl rand -base64 32)",
      })
      .optional(),
  })
  .transform((env) => {
    const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
    const embeddedBase = `${appUrl}/sandbox`;
    const region = env.CGM_REGION ?? (env.CGM_API_BASE_URL ? null : "embedded");
    const presetBase = region === null || region === "embedded" ? embeddedBase : REGION_BASE_URLS[region];
    const cgmApiBaseUrl = (env.CGM_API_BASE_URL ?? presetBase).replace(/\/$/, "");
    const usesEmbeddedSandbox = cgmApiBaseUrl === embeddedBase;
    return {
      ...env,
      APP_URL: appUrl,
      PDF_RENDER_URL: (env.PDF_RENDER_URL ?? appUrl).replace(/\/$/, ""),
      CGM_API_BASE_URL: cgmApiBaseUrl,
      /** The preset the address came from; null for an address of CGM_API_BASE_URL alone. */
      CGM_REGION: region,
      // The sandbox is on by default only while the dashboard talks to it; pointed elsewhere, it
      // stays off unless asked for, so a production deployment does not expose a fake service.
      sandboxEnabled: env.SANDBOX ? env.SANDBOX === "on" : usesEmbeddedSandbox,
      // The embedded sandbox releases readings at once; the real service up to three hours late,
      // by region. An address of our own choosing, without a region, is given the longest delay.
      CGM_DATA_DELAY_MINUTES:
        env.CGM_DATA_DELAY_MINUTES ??
        (usesEmbeddedSandbox
          ? 0
          : REGION_DATA_DELAY_MINUTES[region && region !== "embedded" ? region : "ous"]),
      usesEmbeddedSandbox,
    };
  })
  .superRefine((env, ctx) => {
    // Generated secrets are for the embedded default only: a deployment against another service
    // must bring its own, or tokens and sessions would not survive the loss of the data folder.
    if (env.usesEmbeddedSandbox) return;
    for (const key of [
      "AUTH_SECRET",
      "TOKEN_ENCRYPTION_KEY",
      "CGM_CLIENT_ID",
      "CGM_CLIENT_SECRET",
    ] as const) {
      if (!env[key]) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `${key} is required when CGM_API_BASE_URL or CGM_REGION points to another service`,
        });
      }
    }
  });

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** Parses process.env once; a bad value stops the server with a message that names the variable. */
export function env(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${problems}`);
  }
  cached = parsed.data;
  return cached;
}
