import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

/**
 * State of the embedded sandbox service. Secrets and tokens are stored only as SHA-256 hashes:
 * the sandbox can check them but a copy of the database cannot be replayed against it.
 */
export const sandboxApps = pgTable("sandbox_apps", {
  clientId: text("client_id").primaryKey(),
  name: text("name").notNull(),
  redirectUris: jsonb("redirect_uris").$type<string[]>().notNull(),
  secretHash: text("secret_hash").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  secretRotatedAt: timestamp("secret_rotated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const sandboxAuthCodes = pgTable("sandbox_auth_codes", {
  codeHash: text("code_hash").primaryKey(),
  clientId: text("client_id")
    .notNull()
    .references(() => sandboxApps.clientId, { onDelete: "cascade" }),
  username: text("username").notNull(),
  redirectUri: text("redirect_uri").notNull(),
  codeChallenge: text("code_challenge"),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  consumedAt: timestamp("consumed_at", { withTimezone: true }),
  /** The grant created by the first exchange; a replayed code revokes it (RFC 6749 section 4.1.2). */
  grantId: text("grant_id"),
});

/** One authorization of one app by one sandbox user; revoking it kills all of its tokens. */
export const sandboxGrants = pgTable(
  "sandbox_grants",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => sandboxApps.clientId, { onDelete: "cascade" }),
    username: text("username").notNull(),
    sessionState: text("session_state").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedReason: text("revoked_reason"),
  },
  (t) => [index("sandbox_grants_user_idx").on(t.username)],
);

export const sandboxRefreshTokens = pgTable(
  "sandbox_refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    grantId: text("grant_id")
      .notNull()
      .references(() => sandboxGrants.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("sandbox_refresh_tokens_grant_idx").on(t.grantId)],
);

export const sandboxAccessTokens = pgTable(
  "sandbox_access_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    grantId: text("grant_id")
      .notNull()
      .references(() => sandboxGrants.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sandbox_access_tokens_grant_idx").on(t.grantId)],
);

/** Fault injection and limits for one app; absent row means a well-behaved service. */
export const sandboxFaults = pgTable("sandbox_faults", {
  clientId: text("client_id")
    .primaryKey()
    .references(() => sandboxApps.clientId, { onDelete: "cascade" }),
  latencyMs: integer("latency_ms").notNull().default(0),
  /** Answer this many of the next data requests with `failStatus` (5xx or 429). */
  failNext: integer("fail_next").notNull().default(0),
  failStatus: integer("fail_status").notNull().default(503),
  retryAfterSeconds: integer("retry_after_seconds").notNull().default(1),
  /** Calls allowed per app per clock hour; null means unlimited. */
  rateLimitPerHour: integer("rate_limit_per_hour"),
  /** Readings become visible only this many minutes after their systemTime. */
  releaseDelayMinutes: integer("release_delay_minutes").notNull().default(0),
  enabled: boolean("enabled").notNull().default(true),
});

export const sandboxRateCounters = pgTable(
  "sandbox_rate_counters",
  {
    clientId: text("client_id")
      .notNull()
      .references(() => sandboxApps.clientId, { onDelete: "cascade" }),
    hourStart: bigint("hour_start", { mode: "number" }).notNull(),
    calls: integer("calls").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.hourStart] })],
);

/**
 * Events a sandbox user deleted after logging them (spec: a v2 event's status goes from created to
 * deleted, its eventId and systemTime unchanged), as the app's developer controls asked. Kept per
 * app like the faults, so that one test's deletions never show in another app's data.
 */
export const sandboxEventDeletions = pgTable(
  "sandbox_event_deletions",
  {
    clientId: text("client_id")
      .notNull()
      .references(() => sandboxApps.clientId, { onDelete: "cascade" }),
    username: text("username").notNull(),
    eventId: text("event_id").notNull(),
    /** The event's systemTime (ms), so a window's deletions are one range scan. */
    systemMs: bigint("system_ms", { mode: "number" }).notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.username, t.eventId] }),
    index("sandbox_event_deletions_time_idx").on(t.clientId, t.username, t.systemMs),
  ],
);

/** The sandbox's own sign-in (username only, as the spec's sandbox has no password). */
export const sandboxSessions = pgTable("sandbox_sessions", {
  idHash: text("id_hash").primaryKey(),
  username: text("username").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});
