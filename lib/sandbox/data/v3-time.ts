import { formatServiceTime, MS_PER_MINUTE } from "@/lib/cgm";
import type { SandboxUser } from "../users";
import { displayOf } from "./clock";

/**
 * systemTime and displayTime as v3 writes them (service-v3-notes §3, "Common time rules"): records
 * from phone apps carry UTC offsets (systemTime in UTC with `Z`, displayTime with the offset of the
 * clock in force), receiver records carry none.
 */
export function v3Times(user: SandboxUser, systemMs: number, displayMs = displayOf(user, systemMs)) {
  if (user.displayDevice === "receiver") {
    return { systemTime: formatServiceTime(systemMs, null), displayTime: formatServiceTime(displayMs, null) };
  }
  return {
    systemTime: formatServiceTime(systemMs, "Z"),
    displayTime: formatServiceTime(displayMs, Math.round((displayMs - systemMs) / MS_PER_MINUTE)),
  };
}

/** A server timestamp in UTC (lastUploadDate), written as the user's other times are. */
export function v3UtcTime(user: SandboxUser, systemMs: number): string {
  return formatServiceTime(systemMs, user.displayDevice === "receiver" ? null : "Z");
}
