/**
 * Screenshots of the patient's dashboard for every sandbox user, at desktop (1280 px) and phone
 * (390 and 360 px) widths, light and dark: `node --import tsx scripts/dashboard-screenshots.ts [outDir]`
 * (needs `npm run build`; USERS, PATHS and CGM_API_VERSION choose what). The README's pictures are docs/dashboard-{desktop,phone}.png from here.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium } from "@playwright/test";
import { startAppServer } from "../test/support/app-server";
import { CHROMIUM_LAUNCH } from "../test/support/chromium";

const USERS = (
  process.env.USERS ??
  "SandboxUser1,SandboxUser2,SandboxUser3,SandboxUser4,SandboxUser5,SandboxUser6,SandboxUser7,SandboxUser8"
).split(",");
const PATHS = (process.env.PATHS ?? "/dashboard,/dashboard?range=14d").split(",");

async function shootUser(browser: Browser, base: string, out: string, user: string) {
  for (const [label, width, height, scheme] of [
    ["desktop", 1280, 900, "light"],
    ["desktop-dark", 1280, 900, "dark"],
    ["phone", 390, 844, "light"],
    ["phone-dark", 390, 844, "dark"],
    ["phone-360", 360, 780, "light"],
    ["phone-360-dark", 360, 780, "dark"],
  ] as const) {
    const context = await browser.newContext({
      viewport: { width, height },
      baseURL: base,
      colorScheme: scheme,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await page.goto("/");
    await page.getByRole("button", { name: "Sign in with your CGM account" }).click();
    await page.getByRole("button", { name: `Sign in as ${user}` }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(/\/dashboard/);
    for (const p of PATHS) {
      await page.goto(p);
      // Not "networkidle": the dashboard keeps a poll of the service's dataRange going.
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page
        .locator('[data-testid="glucose-trace"] .recharts-line-curve, [data-testid="empty-state"], h2')
        .first()
        .waitFor();
      await page.waitForTimeout(300);
      const name = `${user}-${p.replace(/^\//, "").replace(/[/?=&]/g, "_")}-${label}`;
      await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
    }
    if (errors.length) console.log(`${user} ${label}: console errors:\n  ${errors.join("\n  ")}`);
    await context.close();
  }
}

async function main() {
  const out = path.resolve(process.argv[2] ?? "/tmp/dashboard-screenshots");
  mkdirSync(out, { recursive: true });
  // CGM_API_VERSION=v3 shoots the dashboard reading API v3 (alerts, v3 devices and events).
  const server = await startAppServer({ CGM_API_VERSION: process.env.CGM_API_VERSION });
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    for (const user of USERS) await shootUser(browser, server.url, out, user);
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(`Screenshots in ${out}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
