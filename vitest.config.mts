import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = {
  "@": import.meta.dirname,
  // `server-only` throws outside a React Server Components bundle; in tests the guard has no job.
  "server-only": path.join(import.meta.dirname, "test/server-only-stub.ts"),
};

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        // Property tests run thousands of cases: on a 2-core machine under load they pass 5 s.
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "test/architecture/**/*.test.ts"],
          env: { TZ: "UTC" },
          testTimeout: 20_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "http",
          include: ["test/http/**/*.test.ts"],
          globalSetup: ["test/http/global-setup.ts"],
          // The suites share one server and its sandbox; some inject faults into, or expire the
          // tokens of, the dashboard's own app there, so they must not overlap.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { TZ: "UTC" },
        },
      },
    ],
  },
});
