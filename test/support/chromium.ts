import { CHROMIUM_ARGS } from "../../lib/platform/chromium";

/** Debian's Chromium, as tests and scripts launch it (flags: lib/platform/chromium.ts). */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [...CHROMIUM_ARGS],
};
