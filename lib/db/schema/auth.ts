import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Who is signed in to the dashboard. A patient's dashboard account is created by their first
 * sign-in with the service (the service tells us no identity of its own, so the account is the
 * connection's owner). Session rows are looked up by the SHA-256 of the cookie's value, so a copy
 * of the database does not hand out live sessions.
 */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name"),
  email: text("email"),
  emailVerified: timestamp("email_verified", { withTimezone: true }),
  image: text("image"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

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
