import { describe, expect, it } from "vitest";
import { PDF_MARKER_TTL_MS, signPdfMarker, verifyPdfMarker } from "./pdf-render-marker";

const secret = "s".repeat(40);
const session = "session-token-of-the-clinician";
const patient = "3f1c2a8e-0000-4000-8000-000000000001";
const now = Date.UTC(2026, 4, 1, 12);

describe("the PDF renderer's marker", () => {
  const marker = signPdfMarker(secret, session, patient, now);

  it("holds for the session and the patient it was made for, until it runs out", () => {
    expect(verifyPdfMarker(secret, marker, session, patient, now)).toBe(true);
    expect(verifyPdfMarker(secret, marker, session, patient, now + PDF_MARKER_TTL_MS - 1)).toBe(true);
    expect(verifyPdfMarker(secret, marker, session, patient, now + PDF_MARKER_TTL_MS)).toBe(false);
  });

  it("holds for no other session, patient or secret", () => {
    expect(verifyPdfMarker(secret, marker, "another-session", patient, now)).toBe(false);
    expect(verifyPdfMarker(secret, marker, session, "another-patient", now)).toBe(false);
    expect(verifyPdfMarker("t".repeat(40), marker, session, patient, now)).toBe(false);
    expect(verifyPdfMarker(secret, marker, undefined, patient, now)).toBe(false);
  });

  it("cannot be made up, stretched or left out by a browser", () => {
    const [expires, mac] = marker.split(".");
    for (const forged of [
      undefined,
      "",
      "1",
      "pdf",
      `${Number(expires) + 1}.${mac}`,
      `${expires}.${"A".repeat(43)}`,
      `${expires}.${mac}x`,
      // A far expiry signed with the right key is still refused: no marker lives longer than a render.
      signPdfMarker(secret, session, patient, now + 3_600_000),
    ]) {
      expect(verifyPdfMarker(secret, forged, session, patient, now), String(forged)).toBe(false);
    }
  });
});
