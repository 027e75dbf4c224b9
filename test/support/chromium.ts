/**
 * Debian's Chromium, as tests and scripts launch it. Without the networking flags it keeps trying
 * to reach Google's hosts, which this machine's closed network refuses.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};
