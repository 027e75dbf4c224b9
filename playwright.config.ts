import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "./test/support/chromium";

/**
 * Browser tests drive Debian's Chromium (`npx playwright install` cannot download browsers here).
 * The global setup starts the production server with a fresh data folder.
 */
export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  workers: 1,
  retries: 0,
  globalSetup: "./e2e/global-setup.ts",
  use: {
    ...devices["Desktop Chrome"],
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: CHROMIUM_LAUNCH,
    trace: "off",
  },
});
