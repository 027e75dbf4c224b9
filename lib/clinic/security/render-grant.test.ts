import { describe, expect, it } from "vitest";
import { signPdfMarker } from "./pdf-render-marker";
import { RENDER_GRANT_TTL_MS, signRenderGrant, verifyRenderGrant } from "./render-grant";

const secret = "s".repeat(40);
const grant = { clinicianId: "clinician-1", clinicPatientId: "3f1c2a8e-0000-4000-8000-000000000001" };
const now = Date.UTC(2026, 4, 1, 12);

describe("a clinic day's render grant", () => {
  const value = signRenderGrant(secret, grant, now);

  it("names the clinician for the patient it was made for, until it runs out", () => {
    expect(verifyRenderGrant(secret, value, grant.clinicPatientId, now)).toBe("clinician-1");
    expect(verifyRenderGrant(secret, value, grant.clinicPatientId, now + RENDER_GRANT_TTL_MS - 1)).toBe(
      "clinician-1",
    );
    expect(verifyRenderGrant(secret, value, grant.clinicPatientId, now + RENDER_GRANT_TTL_MS)).toBeNull();
  });

  it("holds for no other patient or secret, nor with another clinician put in", () => {
    expect(verifyRenderGrant(secret, value, "another-patient", now)).toBeNull();
    expect(verifyRenderGrant("t".repeat(40), value, grant.clinicPatientId, now)).toBeNull();
    const [, expiry, sig] = value.split(".");
    const other = `${Buffer.from("clinician-2").toString("base64url")}.${expiry}.${sig}`;
    expect(verifyRenderGrant(secret, other, grant.clinicPatientId, now)).toBeNull();
  });

  it("cannot be extended: a later expiry breaks the signature, one beyond a grant's life is refused", () => {
    const [who, expiry, sig] = value.split(".");
    const later = `${who}.${Number(expiry) + 60_000}.${sig}`;
    expect(verifyRenderGrant(secret, later, grant.clinicPatientId, now)).toBeNull();
    const farOff = signRenderGrant(secret, grant, now + 10 * RENDER_GRANT_TTL_MS);
    expect(verifyRenderGrant(secret, farOff, grant.clinicPatientId, now)).toBeNull();
  });

  it("is not the PDF marker, nor junk", () => {
    const marker = signPdfMarker(secret, "clinician-1", grant.clinicPatientId, now);
    expect(verifyRenderGrant(secret, marker, grant.clinicPatientId, now)).toBeNull();
    for (const junk of [undefined, "", "a.b.c", `${value}x`, value.replace(/\./g, "")])
      expect(verifyRenderGrant(secret, junk, grant.clinicPatientId, now)).toBeNull();
  });
});
