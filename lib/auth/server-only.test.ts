import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every module that touches the service's tokens, the client secret, session ids or the keys
 * begins with `import "server-only"`, so importing one from a client component fails the build.
 */
const MODULES = [
  "lib/platform/env.ts",
  "lib/platform/config/local-secrets.ts",
  "lib/service-client/config.ts",
  "lib/service-client/crypto.ts",
  "lib/service-client/oauth.ts",
  "lib/service-client/tokens.ts",
  "lib/service-client/client.ts",
  "lib/auth/index.ts",
  "lib/auth/adapter.ts",
  "lib/auth/cookies.ts",
  "lib/auth/sign-in.ts",
  "lib/api/auth-routes.ts",
  "lib/api/route.ts",
  "lib/api/errors.ts",
  "lib/api/cgm-proxy.ts",
  "lib/auth/patient.ts",
  "lib/api/dashboard.ts",
  "lib/dashboard/overview.ts",
  "lib/dashboard/day.ts",
  "lib/dashboard/patient-page.ts",
  "lib/preferences/store.ts",
  "lib/sandbox/secrets.ts",
  "lib/sandbox/apps.ts",
  "lib/sandbox/authorization-requests.ts",
  "lib/sandbox/grants.ts",
  "lib/sandbox/login-sessions.ts",
  "lib/clinic/security/password.ts",
  "lib/clinic/security/attempts.ts",
  "lib/clinic/domain/accounts.ts",
  "lib/clinic/domain/clinics.ts",
  "lib/clinic/domain/demo.ts",
  "lib/clinic/views/notice.ts",
  "lib/api/clinic-routes.ts",
];

describe('import "server-only"', () => {
  it.each(MODULES)("%s starts with it", (file) => {
    const text = readFileSync(path.join(import.meta.dirname, "../..", file), "utf8");
    const firstStatement = text
      .split("\n")
      .find((line) => line.trim() && !line.trim().startsWith("//") && !line.trim().startsWith("/*"));
    expect(firstStatement).toBe('import "server-only";');
  });
});
