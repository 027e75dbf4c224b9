/**
 * The README's "A clinician's day, step by step", followed in a real browser on the embedded
 * sandbox, keeping what it produced: `node --import tsx scripts/walkthrough-clinician-day.ts [outDir]`
 * (needs `npm run build`). A clinic invites three patients (SandboxUser1, 2 and 4), syncs them,
 * tags them "Tuesday", reviews one (a note on a range of the trace, Mark reviewed), prepares a
 * clinic day of the tag, downloads its zip and the FHIR Bundle of one patient.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import { startAppServer } from "../test/support/app-server";
import { CHROMIUM_LAUNCH } from "../test/support/chromium";

const PATIENTS = [
  ["Dana Daily", "1980-04-12", "SandboxUser1"],
  ["Sam Sandbox", "1975-09-30", "SandboxUser2"],
  ["Chris Chicago", "1991-01-05", "SandboxUser4"],
] as const;

async function accept(browser: Browser, base: string, link: string, user: string) {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto(link);
  await page.getByRole("button", { name: "Connect your CGM account" }).click();
  await page.getByLabel("Username").fill(user);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.getByRole("button", { name: /^Allow .* to see my data$/ }).click();
  await page.getByTestId("share-accepted").waitFor();
  await context.close();
}

async function shoot(page: Page, out: string, name: string) {
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
}

async function main() {
  const out = path.resolve(process.argv[2] ?? "/tmp/walkthrough");
  mkdirSync(out, { recursive: true });
  const server = await startAppServer();
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const context = await browser.newContext({ baseURL: server.url, acceptDownloads: true });
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/clinic/sign-up");
    await page.getByLabel("Your name").fill("Dr Ada Admin");
    await page.getByLabel("Clinic name").fill("Lakeside Diabetes Clinic");
    await page.getByLabel("Email").fill("ada@lakeside.example");
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create clinic" }).click();
    for (const [name, birth, user] of PATIENTS) {
      const patients = page.getByRole("region", { name: "Patients" });
      await patients.getByLabel("Patient's name").fill(name);
      await patients.getByLabel("Date of birth (optional)").fill(birth);
      await patients.getByRole("button", { name: "Add and create link" }).click();
      await accept(browser, server.url, await page.getByTestId("patient-invitation-link").inputValue(), user);
      await page.goto("/clinic");
      await page.getByRole("button", { name: `Sync now for ${name}` }).click();
      await page.getByTestId("sync-result").waitFor();
    }
    // A tag for the day, set on each patient's page.
    await page.getByRole("link", { name: "Population: who needs attention" }).click();
    await page.getByLabel("New tag").fill("Tuesday");
    await page.getByRole("button", { name: "Create the tag" }).click();
    await page.getByTestId("tags-status").waitFor();
    for (const [name] of PATIENTS) {
      await page.goto("/clinic");
      await page.getByRole("link", { name, exact: true }).first().click();
      await page.getByTestId("patient-name").waitFor();
      const tags = page.locator("#tags");
      await tags.getByLabel("Tuesday").check();
      await tags.getByRole("button", { name: /Save/ }).click();
      await page.getByText("Tags saved.").waitFor();
    }
    // The review of Sam: a note on last night, shared with him, then Mark reviewed.
    await page.goto("/clinic");
    await page.getByRole("link", { name: "Sam Sandbox", exact: true }).first().click();
    await page.getByTestId("glucose-trace").waitFor();
    const form = page.getByTestId("note-form");
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);
    await form.getByLabel("Note").fill("Night lows after the new basal rate: lower it by 10 %");
    await form.getByLabel("From").fill(iso(Date.now() - 16 * 3_600_000));
    await form.getByLabel("To").fill(iso(Date.now() - 10 * 3_600_000));
    await form.getByLabel("Share with the patient").check();
    await form.getByRole("button", { name: "Add the note" }).click();
    await page.getByTestId("note-status").waitFor();
    await page.getByRole("button", { name: "Mark reviewed" }).click();
    await page.waitForLoadState("networkidle");
    await shoot(page, out, "1-patient-reviewed");
    await page.goto("/clinic");
    await page.getByRole("link", { name: "Population: who needs attention" }).click();
    await page.getByRole("heading", { level: 1 }).waitFor();
    await shoot(page, out, "2-population");
    // The clinic day of the tag.
    await page.getByTestId("clinic-day-link").click();
    await page.waitForURL(/\/clinic\/clinic-day/);
    await page.getByLabel("Patients", { exact: true }).selectOption({ label: "Tag: Tuesday" });
    await page.getByLabel("Period").selectOption("14");
    await page.getByRole("button", { name: "Prepare" }).click();
    const progress = page.getByTestId("clinic-day-progress").first();
    await progress.waitFor();
    console.log(`progress: ${await progress.textContent()}`);
    await shoot(page, out, "3-clinic-day-preparing");
    await page.waitForFunction(
      () =>
        /^3 of 3 ready/.test(
          document.querySelector('[data-testid="clinic-day-progress"]')?.textContent ?? "",
        ),
      null,
      { timeout: 180_000 },
    );
    console.log(`progress: ${await progress.textContent()}`);
    await shoot(page, out, "4-clinic-day-ready");
    const [zip] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("clinic-day-download").click(),
    ]);
    await zip.saveAs(`${out}/${zip.suggestedFilename()}`);
    console.log(`zip: ${zip.suggestedFilename()}`);
    // The FHIR Bundle of Sam, from his page.
    await page.goto("/clinic");
    await page.getByRole("link", { name: "Sam Sandbox", exact: true }).first().click();
    const [bundle] = await Promise.all([
      page.waitForEvent("download"),
      page
        .getByRole("link", { name: /Download FHIR Bundle/ })
        .first()
        .click(),
    ]);
    await bundle.saveAs(`${out}/${bundle.suggestedFilename()}`);
    console.log(`bundle: ${bundle.suggestedFilename()}`);
    writeFileSync(`${out}/done.txt`, new Date().toISOString());
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
