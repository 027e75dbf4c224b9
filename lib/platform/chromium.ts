/**
 * How Debian's Chromium is launched, by the server (the AGP PDF) and by tests and scripts alike.
 * Without the networking flags it keeps trying to reach Google's hosts, which closed networks
 * refuse; --no-sandbox because containers rarely allow its namespaces.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
] as const;
