import "server-only";
import { z } from "zod";

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
    CGM_API_BASE_URL: z.url().optional(),
    SANDBOX: onOff.optional(),
    SANDBOX_ACCESS_TOKEN_TTL: positiveInt.default(7200),
    SANDBOX_AUTH_CODE_TTL: positiveInt.default(60),
    SANDBOX_FAULTS: onOff.default("on"),
    CGM_CLIENT_ID: z.string().min(1).optional(),
    CGM_CLIENT_SECRET: z.string().min(1).optional(),
    CGM_MAX_WINDOW_DAYS: positiveInt.max(90).default(30),
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
    const cgmApiBaseUrl = (env.CGM_API_BASE_URL ?? embeddedBase).replace(/\/$/, "");
    const usesEmbeddedSandbox = cgmApiBaseUrl === embeddedBase;
    return {
      ...env,
      APP_URL: appUrl,
      CGM_API_BASE_URL: cgmApiBaseUrl,
      // The sandbox is on by default only while the dashboard talks to it; pointed elsewhere, it
      // stays off unless asked for, so a production deployment does not expose a fake service.
      sandboxEnabled: env.SANDBOX ? env.SANDBOX === "on" : usesEmbeddedSandbox,
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
          message: `${key} is required when CGM_API_BASE_URL points to another service`,
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
