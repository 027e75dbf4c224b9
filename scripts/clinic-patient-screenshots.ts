/**
 * Screenshots of a clinic patient's page (notes, review, tags) and of the Clinic day page, at
 * 1280, 390 and 360 px, light and dark: `node --import tsx scripts/clinic-patient-screenshots.ts
 * [outDir]` (needs `npm run build`; default docs/screenshots). It founds a clinic with two
 * sharing patients made as e2e/clinic-setup.ts makes them (one without readings, so the clinic
 * day names a failure), writes a note on a range, marks the patient reviewed, tags them, prepares
 * a clinic day, and shoots. Every shot is checked for sideways scrolling: a page wider than the
 * window is reported with the elements that stick out, and the script fails.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { acceptInvitation, addPatient, foundClinic, syncNow } from "../e2e/clinic-setup";
import { formatDateTime } from "../lib/cgm/datetime";
import { startAppServer, UNLIMITED_CALL_BUDGET } from "../test/support/app-server";
import { CHROMIUM_LAUNCH } from "../test/support/chromium";

const WIDTHS = [1280, 390, 360] as const;
const SCHEMES = ["light", "dark"] as const;

/** The elements whose right edge is past the window: what makes a page scroll sideways. */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll("body *"))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 0.5) {
        const id = el.getAttribute("data-testid") ?? el.id ?? "";
        out.push(
          `${el.tagName.toLowerCase()}${id ? `#${id}` : ""}.${String(el.className).slice(0, 60)} right=${Math.round(r.right)}`,
        );
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, out: out.slice(0, 15) };
  });

async function shoot(page: Page, out: string, name: string, problems: string[]) {
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(300);
      const file = `${out}/${name}-${width}-${scheme}.png`;
      await page.screenshot({ path: file, fullPage: true });
      const o = await overflowing(page);
      if (o.scrollWidth > o.width)
        problems.push(`${file}: ${o.scrollWidth} > ${o.width}\n  ${o.out.join("\n  ")}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function main() {
  const out = path.resolve(process.argv[2] ?? "docs/screenshots");
  mkdirSync(out, { recursive: true });
  const server = await startAppServer(UNLIMITED_CALL_BUDGET);
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  const problems: string[] = [];
  try {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    const clinicName = "Lakeside Diabetes Clinic";
    await foundClinic(page, clinicName, { email: "ada@lakeside.example" });
    for (const [name, username] of [
      ["Sam Sandbox", "SandboxUser2"],
      ["Eli Empty", "SandboxUser6"],
    ] as const) {
      const link = await addPatient(page, name, "1975-06-01");
      const patient = await acceptInvitation(browser, link, username, clinicName);
      await patient.context.close();
      await syncNow(page, name);
    }
    await page.goto("/clinic");
    await page.getByRole("link", { name: "Population: who needs attention" }).click();
    await page.getByLabel("New tag").fill("Pump start");
    await page.getByRole("button", { name: "Create the tag" }).click();
    await page.getByTestId("tags-status").waitFor();

    await page.goto("/clinic");
    await page.getByRole("link", { name: "Sam Sandbox", exact: true }).first().click();
    await page.getByTestId("glucose-trace").waitFor();
    const now = Date.now();
    const form = page.getByTestId("note-form");
    await form.getByLabel("Note").fill("Night lows after the new basal rate");
    await form.getByLabel("From").fill(formatDateTime(now - 16 * 3_600_000).slice(0, 16));
    await form.getByLabel("To").fill(formatDateTime(now - 10 * 3_600_000).slice(0, 16));
    await form.getByLabel("Share with the patient").check();
    await form.getByRole("button", { name: "Add the note" }).click();
    await page.getByTestId("note-status").waitFor();
    await page.getByRole("button", { name: "Mark reviewed" }).click();
    await page.getByTestId("last-review").waitFor();
    await page.getByRole("region", { name: "Tags" }).getByLabel("Pump start").check();
    await page.getByRole("button", { name: "Save tags" }).click();
    await page.getByTestId("patient-tags").waitFor();
    // The page as a clinician comes back to it, without the saved-form notices.
    await page.goto(page.url().split("?")[0] ?? page.url());
    await page.getByTestId("glucose-trace").waitFor();
    await shoot(page, out, "clinic-patient", problems);

    await page.goto("/clinic");
    await page.getByRole("link", { name: "Population: who needs attention" }).click();
    await page.getByTestId("clinic-day-link").click();
    await page.getByRole("heading", { level: 1, name: /^Clinic day/ }).waitFor();
    await page.getByLabel("Patients").selectOption("all");
    await page.getByLabel("Period").selectOption("14");
    await page.getByRole("button", { name: "Prepare" }).click();
    await page.getByTestId("clinic-day-download").waitFor({ timeout: 120_000 });
    await page.reload();
    await page.getByTestId("clinic-day-download").waitFor();
    await shoot(page, out, "clinic-day", problems);
    console.log(`screenshots in ${out}`);
  } finally {
    await browser.close();
    await server.stop();
  }
  if (problems.length > 0) {
    console.error(`sideways scrolling:\n${problems.join("\n")}`);
    process.exit(2);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
