/**
 * Screenshots of the clinic's pages at desktop (1280 px) and phone (390 px) widths:
 * `node --import tsx scripts/clinic-screenshots.ts [outDir]` (needs `npm run build`). It founds a
 * clinic, invites SandboxUser2 and 3 (who accept in their own browsers) and one more patient whose
 * invitation is left pending, syncs the two who share ("Sync now", as a clinician would before a
 * clinic day; the population view reads synced data only), and shoots the clinic page, the
 * population view in mg/dL and in mmol/L, a patient's dashboard and AGP, the audit log, the
 * invitation page and the patient's Sharing page.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import { startAppServer } from "../test/support/app-server";
import { CHROMIUM_LAUNCH } from "../test/support/chromium";

const WIDTHS = [
  ["desktop", 1280, 900],
  ["phone", 390, 844],
] as const;

async function shoot(page: Page, out: string, name: string) {
  for (const [label, width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${out}/${name}-${label}.png`, fullPage: true });
  }
}

async function invite(page: Page, name: string): Promise<string> {
  const patients = page.getByRole("region", { name: "Patients" });
  await patients.getByLabel("Patient's name").fill(name);
  await patients.getByRole("button", { name: "Add and create link" }).click();
  return page.getByTestId("patient-invitation-link").inputValue();
}

async function accept(browser: Browser, base: string, link: string, user: string, out?: string) {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto(link);
  if (out) await shoot(page, out, "share-invitation");
  await page.getByRole("button", { name: "Connect your CGM account" }).click();
  await page.getByRole("button", { name: `Sign in as ${user}` }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.getByRole("button", { name: /^Allow .* to see my data$/ }).click();
  await page.getByTestId("share-accepted").waitFor();
  if (out) await shoot(page, out, "sharing");
  await context.close();
}

async function main() {
  const out = path.resolve(process.argv[2] ?? "/tmp/clinic-screenshots");
  mkdirSync(out, { recursive: true });
  const server = await startAppServer();
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto("/clinic/sign-up");
    await page.getByLabel("Your name").fill("Dr Ada Admin");
    await page.getByLabel("Clinic name").fill("Lakeside Diabetes Clinic");
    await page.getByLabel("Email").fill("ada@lakeside.example");
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create clinic" }).click();
    await accept(browser, server.url, await invite(page, "Sam Sandbox"), "SandboxUser2", out);
    await accept(browser, server.url, await invite(page, "Robin Mmol"), "SandboxUser3");
    await invite(page, "Pat Pending");
    await page.goto("/clinic");
    for (const name of ["Sam Sandbox", "Robin Mmol"]) {
      await page.getByRole("button", { name: `Sync now for ${name}` }).click();
      await page.getByTestId("sync-result").waitFor();
    }
    await shoot(page, out, "clinic");
    await page.getByRole("link", { name: /Population/ }).click();
    await page.getByRole("heading", { level: 1 }).waitFor();
    await shoot(page, out, "population");
    await page.getByRole("button", { name: "mmol/L", exact: true }).click();
    await page.locator('button[aria-pressed="true"]', { hasText: "mmol/L" }).waitFor();
    await shoot(page, out, "population-mmol");
    await page.getByRole("button", { name: "mg/dL", exact: true }).click();
    await page.locator('button[aria-pressed="true"]', { hasText: "mg/dL" }).waitFor();
    await page.goto("/clinic");
    await page.getByRole("link", { name: "AGP of Sam Sandbox" }).click();
    await page.getByTestId("agp-report").waitFor();
    await shoot(page, out, "patient-agp");
    await page.getByRole("link", { name: "Dashboard", exact: true }).click();
    await page.getByTestId("trace-caption").waitFor();
    await page.waitForTimeout(500);
    await shoot(page, out, "patient-dashboard");
    await page.goto("/clinic");
    await page.getByRole("link", { name: "Audit log" }).click();
    await page.getByTestId("audit-log").waitFor();
    await shoot(page, out, "audit");
    console.log(`screenshots in ${out}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
