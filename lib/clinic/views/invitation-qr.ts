import "server-only";
import QRCode from "qrcode";

/**
 * The invitation link as a QR code, drawn here as SVG (the qrcode package, no outside service: the
 * link is a one-time secret and never leaves the server but to the clinician who made it). The
 * patient scans it from the clinician's screen with their phone's camera. Error correction M (15 %)
 * reads well off a screen; the quiet zone of 4 modules is the standard's.
 */
export const INVITATION_QR_OPTIONS = { type: "svg", errorCorrectionLevel: "M", margin: 4 } as const;

export function invitationQrSvg(link: string): Promise<string> {
  return QRCode.toString(link, INVITATION_QR_OPTIONS);
}
