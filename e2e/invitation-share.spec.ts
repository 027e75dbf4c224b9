import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import jsQR from "jsqr";
import { expectNoViolations } from "./axe";
import { addPatient, foundClinic } from "./clinic-setup";

/**
 * The invitation link in Chromium: the Copy button puts the link on the clipboard and says so;
 * without the clipboard API it falls back, and where copying is refused altogether it leaves the
 * link selected with words saying how to copy it; the QR code beside it decodes, read off the
 * page's own pixels, to exactly the link; the patient's step 2 names the account being shared.
 */

async function clinicWithNewPatient(page: Page, patientName: string) {
  await foundClinic(page, `Harbour Clinic ${randomUUID().slice(0, 4)}`);
  return addPatient(page, patientName);
}

/** The QR code as the browser draws it: the SVG rasterised on a canvas, its pixels decoded by jsQR. */
async function decodeQr(page: Page): Promise<string | null> {
  const image = await page.getByTestId("patient-invitation-link-qr").evaluate(async (box) => {
    const svg = box.querySelector("svg");
    if (!svg) return null;
    const size = 400;
    const img = new Image(size, size);
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.outerHTML)}`;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext("2d");
    if (!context) return null;
    context.fillStyle = "#fff";
    context.fillRect(0, 0, size, size);
    context.drawImage(img, 0, 0, size, size);
    return Array.from(context.getImageData(0, 0, size, size).data);
  });
  if (!image) return null;
  return jsQR(Uint8ClampedArray.from(image), 400, 400)?.data ?? null;
}

test("the invitation link copies, its QR code decodes to it, and step 2 names the account", async ({
  page,
  browser,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const link = await clinicWithNewPatient(page, "Robin Scan");
  expect(link).toMatch(/\/share\?token=[A-Za-z0-9_-]{43}$/);

  expect(await decodeQr(page)).toBe(link);

  const copy = page.getByTestId("new-patient-link-copy");
  await expect(copy).toHaveText("Copy link");
  await copy.click();
  await expect(copy).toHaveText("Copied");
  await expect(page.getByTestId("new-patient-link-copy-status")).toHaveText(
    "Copied: the link is on your clipboard.",
  );
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expectNoViolations(page, "the clinic page with the link, its Copy button and QR code");

  // The patient opens the link in their own browser, connects, and sees which account it is.
  const patientContext = await browser.newContext();
  const patient = await patientContext.newPage();
  try {
    await patient.goto(link);
    await patient.getByRole("button", { name: "Connect your CGM account" }).click();
    await patient.getByLabel("Username").fill("SandboxUser1");
    await patient.getByRole("button", { name: "Sign in", exact: true }).click();
    await patient.getByRole("button", { name: "Allow" }).click();
    await expect(
      patient.getByRole("heading", { name: "Step 2 of 2: allow the clinic access" }),
    ).toBeVisible();
    const account = patient.getByTestId("shared-account");
    await expect(account).toContainText("This is the account the clinic will see");
    if (process.env.E2E_API_VERSION !== "v2") {
      await expect(patient.getByTestId("shared-account-id")).toHaveText(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
    await expect(patient.getByTestId("shared-account-latest")).toHaveText(
      /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) \d{1,2} \w{3} \d{4}, \d\d:\d\d on your receiver's clock$/,
    );
    await expectNoViolations(patient, "the invitation's step 2, naming the account");
  } finally {
    await patientContext.close();
  }
});

test("without the clipboard API the link is still copied, or left selected with how to copy it", async ({
  page,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
  });
  const link = await clinicWithNewPatient(page, "Sky Fallback");
  // The copy command on the selected field.
  await page.getByTestId("new-patient-link-copy").click();
  const status = page.getByTestId("new-patient-link-copy-status");
  await expect(status).toHaveText(
    /^(Copied: the link is on your clipboard\.|Your browser did not allow copying.*)$/,
  );
  // Refused altogether: the link is selected, and the words say how to copy it.
  await page.evaluate(() => {
    document.execCommand = () => false;
  });
  await page.getByTestId("new-patient-link-copy").click();
  await expect(status).toHaveText(
    "Your browser did not allow copying: the link is selected, press Ctrl+C (⌘C on a Mac).",
  );
  const selected = await page
    .getByTestId("patient-invitation-link")
    .evaluate((input: HTMLInputElement) =>
      input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0),
    );
  expect(selected).toBe(link);
});
