import QRCode from "qrcode";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { INVITATION_QR_OPTIONS } from "@/lib/clinic/views/invitation-qr";
import { formatDateTimeText } from "@/lib/records/format";
import { userIdFor } from "@/lib/sandbox/service-v3";
import { clinicClient } from "../support/clinic-client";
import { authorizeAt, callback, dashboardApp, setCookieOf, startSignIn } from "../support/dashboard-client";
import { serviceReader } from "../support/sandbox-client";

/**
 * The invitation link as the clinician gets it, over HTTP: the clinic page shows it once with its
 * QR code, which is the qrcode package's own drawing of exactly that link (made on the server, so
 * in the page's HTML); and the patient's step 2 names the CGM account about to be shared, as the
 * service names it (v3's userId for the dashboard's app; v2 names none) with its newest reading's
 * time on the receiver's clock. The browser test (e2e/invitation-share.spec.ts) decodes the code.
 */

const base = inject("baseUrl");
const apiVersion = inject("apiVersion");
const app = dashboardApp(inject("dataDir"));
const { clinician, addPatient, get, text } = clinicClient(base);

describe("a patient's invitation link", () => {
  let clinic: Awaited<ReturnType<typeof clinician>>;
  let token = "";
  let page = "";

  beforeAll(async () => {
    clinic = await clinician();
    ({ token, page } = await addPatient(clinic, "Quinn Scan"));
  }, 30_000);

  it("comes with its QR code, drawn on the server from exactly this link, and a Copy button", async () => {
    const link = /data-testid="patient-invitation-link"[^>]*value="([^"]+)"/.exec(page)?.[1] ?? "";
    expect(new URL(link).searchParams.get("token")).toBe(token);
    const shown = /data-testid="patient-invitation-link-qr"[^>]*>(<svg.*?<\/svg>)/s.exec(page)?.[1];
    expect(shown).toBeDefined();
    expect(shown).toBe((await QRCode.toString(link, INVITATION_QR_OPTIONS)).trim());
    // Not the same drawing for another link: the code carries this token.
    expect(shown).not.toBe((await QRCode.toString(`${link}x`, INVITATION_QR_OPTIONS)).trim());
    expect(page).toContain('data-testid="new-patient-link-copy"');
    // No outside service draws it: no image is fetched for it.
    expect(page).not.toMatch(/<img[^>]+(qr|chart\.googleapis|api\.qrserver)/i);
    // Shown once: the page reloaded without the notice has neither the link nor its code.
    const again = await text(await get(`/clinic?clinic=${clinic.clinicId}`, clinic.cookie));
    expect(again).not.toContain("patient-invitation-link-qr");
  });

  it("names the account being shared, and its latest reading, on step 2 before the patient allows", async () => {
    const here = `/share?token=${encodeURIComponent(token)}`;
    const { loginUrl, stateCookie } = await startSignIn(base, here);
    const back = await callback(await authorizeAt(loginUrl.origin, loginUrl, "SandboxUser3"), stateCookie);
    expect(back.headers.get("location")).toBe(here);
    const cookie = setCookieOf(back, "glucose.session")?.split(";")[0] ?? "";
    const read = await serviceReader(base, "SandboxUser3");
    // The sandbox adds a reading every five minutes: the newest before and after the page was made.
    const newest = async () => {
      const range = await (await read(`${apiVersion === "v3" ? "v3" : "v2"}/users/self/dataRange`)).json();
      // v3 writes the receiver's clock with its offset: the clock's own time is the first 19 characters.
      return `${formatDateTimeText(String(range.egvs.end.displayTime).slice(0, 19))} on your receiver's clock`;
    };
    const before = await newest();
    const step2 = await text(await get(here, cookie));
    const after = await newest();
    expect(step2).toContain("Step 2 of 2: allow the clinic access");
    const account = /data-testid="shared-account-id"[^>]*>(.*?)<\/dd>/s.exec(step2)?.[1] ?? "";
    if (apiVersion === "v3") {
      expect(account).toContain(userIdFor("SandboxUser3", app.client_id));
    } else {
      expect(account).toContain("not named by the service");
    }
    const latest = /data-testid="shared-account-latest"[^>]*>(.*?)<\/dd>/s.exec(step2)?.[1] ?? "";
    expect([before, after]).toContain(latest);
    // Naming it comes before the confirmation.
    expect(step2.indexOf("shared-account-id")).toBeLessThan(step2.indexOf("to see my data"));
  });
});
