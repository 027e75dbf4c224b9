import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { formatDateTime } from "../lib/cgm/datetime";
import { expectNoViolations } from "./axe";
import { acceptInvitation, addPatient, foundClinic } from "./clinic-setup";
import { mostLinesAcrossPhoneWidths } from "./layout";

/**
 * A clinician's review of a patient (issue 18, items 3 and 4), in a real browser: a note on a time
 * range of the trace, seen as a band on the trace; "Mark reviewed", shown in the population view;
 * a clinic tag set on the patient and the population filtered by it with the page's own form.
 * Screenshots of the patient page at 1280 and 390 px, light and dark.
 */

test("a clinician notes a time range, sees its band on the trace, marks reviewed and filters by tag", async ({
  page,
  browser,
}) => {
  const clinicName = `Notes Clinic ${randomUUID().slice(0, 4)}`;
  const name = `Rita Review ${randomUUID().slice(0, 4)}`;
  await foundClinic(page, clinicName);
  const link = await addPatient(page, name);
  const { patient, context: patientContext } = await acceptInvitation(
    browser,
    link,
    "SandboxUser4",
    clinicName,
  );

  // A tag for the clinic, made on the population page.
  await page.goto("/clinic");
  await page.getByRole("link", { name: "Population: who needs attention" }).click();
  await page.getByLabel("New tag").fill("Pump start");
  await page.getByRole("button", { name: "Create the tag" }).click();
  await expect(page.getByTestId("tags-status")).toHaveText("Tag created.");

  await page.goto("/clinic");
  await page.getByRole("link", { name, exact: true }).first().click();
  await expect(page.getByTestId("patient-name")).toHaveText(name);
  await expect(page.getByTestId("glucose-trace")).toBeVisible();

  // The note's range: within the last 24 hours whatever the receiver's clock (within ±8 h of UTC).
  const now = Date.now();
  const start = formatDateTime(now - 16 * 3_600_000).slice(0, 16);
  const end = formatDateTime(now - 10 * 3_600_000).slice(0, 16);
  const form = page.getByTestId("note-form");
  await form.getByLabel("Note").fill("Night lows after the new basal rate");
  await form.getByLabel("From").fill(start);
  await form.getByLabel("To").fill(end);
  await form.getByLabel("Share with the patient").check();
  await form.getByRole("button", { name: "Add the note" }).click();
  await expect(page.getByTestId("note-status")).toHaveText("Note saved.");
  const note = page.getByTestId("notes").locator("li").first();
  await expect(note).toContainText("Night lows after the new basal rate");
  await expect(note.getByTestId("note-range")).toHaveText(
    `${start.replace("T", " ")} to ${end.replace("T", " ")} on the patient's receiver clock`,
  );
  await expect(note.getByTestId("note-shared")).toHaveText("Shared with the patient");
  // The band: drawn by the server's SVG at once, and by the interactive chart once it has loaded.
  await expect(page.getByTestId("trace-caption")).toContainText(
    "Orange columns mark the time ranges of notes",
  );
  await expect(page.locator(".trace-note-band")).toHaveCount(1);
  const band = (await page.locator(".trace-note-band").boundingBox())!;
  const trace = (await page.getByTestId("glucose-trace").boundingBox())!;
  // Six of the trace's 24 hours: about a quarter of its width.
  expect(band.width / trace.width).toBeGreaterThan(0.15);
  expect(band.width / trace.width).toBeLessThan(0.3);

  // Mark reviewed, with the period offered.
  await page.getByRole("button", { name: "Mark reviewed" }).click();
  await expect(page.getByTestId("last-review")).toContainText(/Last reviewed .* UTC by Dr Ada Admin, period/);
  // The tag.
  await page.getByRole("region", { name: "Tags" }).getByLabel("Pump start").check();
  await page.getByRole("button", { name: "Save tags" }).click();
  await expect(page.getByTestId("patient-tags")).toHaveText("Tagged: Pump start.");
  await expectNoViolations(page, "a clinic patient's page with a note, a review and a tag");

  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 390, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.locator("#notes").scrollIntoViewIfNeeded();
      await page.screenshot({
        path: test.info().outputPath(`clinic-notes-${width}-${colorScheme}.png`),
        fullPage: true,
      });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  // The note's badge stays whole on a phone (it split over two lines at 360 px).
  const badge = note.getByTestId("note-shared");
  expect(await mostLinesAcrossPhoneWidths(page, badge, "Shared with the patient")).toBe(1);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The population: reviewed by whom, tagged, and the filter by tag from the page's form.
  await page.goto("/clinic");
  await page.getByRole("link", { name: "Population: who needs attention" }).click();
  const row = page.locator("tr", { has: page.getByRole("link", { name, exact: true }) });
  await expect(row.locator('[data-col="reviewed"]')).toContainText("by Dr Ada Admin");
  await expect(row.locator('[data-col="tags"]')).toHaveText("Pump start");
  await page.getByLabel("Tag", { exact: true }).selectOption({ label: "Pump start" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/[?&]tag=[0-9a-f-]{36}/);
  await expect(page.getByTestId("tag-filtered")).toHaveText("Patients tagged Pump start: 1.");
  await expect(page.getByTestId("population-count")).toContainText("1 patient");
  await expectNoViolations(page, "the population filtered by a tag");
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: test.info().outputPath("population-tag-390-light.png"), fullPage: true });

  // The patient sees the shared note and writes one of their own, which the clinic then sees.
  try {
    await patient.goto("/dashboard/notes");
    await expect(patient.getByTestId("notes")).toContainText("Night lows after the new basal rate");
    // The form is folded away once there are notes.
    await patient.getByText("Write a note", { exact: true }).click();
    const own = patient.getByTestId("note-form");
    await own.getByLabel("Note").fill("Ill with a cold");
    await own.getByRole("button", { name: "Add the note" }).click();
    await expect(patient.getByTestId("note-status")).toHaveText("Note saved.");
    await expect(patient.getByTestId("notes").locator("li")).toHaveCount(2);
    await patient.emulateMedia({ colorScheme: "dark" });
    await patient.setViewportSize({ width: 390, height: 900 });
    await patient.screenshot({ path: test.info().outputPath("patient-notes-390-dark.png"), fullPage: true });
  } finally {
    await patientContext.close();
  }
  // The clinic sees the patient's note, as the patient shares with it.
  await page.goto("/clinic");
  await page.getByRole("link", { name, exact: true }).first().click();
  await expect(page.getByTestId("notes").locator('li[data-author="patient"]')).toContainText(
    "Ill with a cold",
  );
});
