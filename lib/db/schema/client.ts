import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The dashboard's connections to the glucose data service: one per patient account authorized at
 * the service. Tokens are stored only encrypted (AES-256-GCM, lib/service-client/crypto.ts).
 */
export const cgmConnections = pgTable(
  "cgm_connections",
  {
    id: text("id").primaryKey(),
    /** Who owns the connection in the dashboard (the signed-in user's id). */
    ownerId: text("owner_id").notNull(),
    accessTokenEnc: text("access_token_enc"),
    refreshTokenEnc: text("refresh_token_enc"),
    accessExpiresAt: timestamp("access_expires_at", { withTimezone: true }),
    /** "active", or "needs_reconnect" after the service refused the refresh token (400). */
    status: text("status").$type<"active" | "needs_reconnect">().notNull().default("active"),
    /** Incremented at every token change; lets a request see that another one refreshed. */
    tokenVersion: integer("token_version").notNull().default(0),
    refreshedAt: timestamp("refreshed_at", { withTimezone: true }),
    /**
     * When the code exchange that gave the stored tokens completed (a refresh keeps it): of two
     * sign-ins of one account at once, the later authorization is the one kept. Null for
     * connections stored before migration 0018.
     */
    authorizedAt: timestamp("authorized_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("cgm_connections_owner_idx").on(t.ownerId)],
);
