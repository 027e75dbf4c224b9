import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Who is signed in to the dashboard. A patient's dashboard account is created by their first
 * sign-in with the service and owns the connection. Under API v3 the service names the account
 * that signed in (the envelope's userId, one per account and client app), and every later sign-in
 * of that account, from any browser, reaches the same dashboard account (lib/auth/service-account.ts);
 * under v2 it names none, and each sign-in outside a session makes a new account. Session rows are
 * looked up by the SHA-256 of the cookie's value, so a copy of the database does not hand out live
 * sessions.
 */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name"),
    email: text("email"),
    emailVerified: timestamp("email_verified", { withTimezone: true }),
    image: text("image"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The service account this patient account belongs to: an HMAC of the v3 envelope's userId
     * under a key derived from TOKEN_ENCRYPTION_KEY (lib/service-client/crypto.ts), never the
     * userId itself. Unique, so one service account has one patient account however many sign-ins
     * race; null for clinicians and for accounts made under v2 until a v3 sign-in names them.
     */
    serviceUserHash: text("service_user_hash"),
  },
  (t) => [uniqueIndex("users_service_user_hash_key").on(t.serviceUserHash)],
);

export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: timestamp("expires", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * One sign-in attempt at the service, between "Sign in" and the callback: its state (hashed; the
 * browser holds the value in a cookie), PKCE verifier (encrypted), where to go afterwards, and the
 * signed-in user who started it (a reconnect renews that user's connection). Deleted by the
 * callback that uses it, so it works once.
 */
export const authAttempts = pgTable(
  "auth_attempts",
  {
    stateHash: text("state_hash").primaryKey(),
    codeVerifierEnc: text("code_verifier_enc").notNull(),
    returnTo: text("return_to").notNull(),
    userId: text("user_id"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("auth_attempts_expires_idx").on(t.expiresAt)],
);
