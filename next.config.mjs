// @ts-check
// JavaScript, not TypeScript: `next start` transpiles a next.config.ts with SWC at every start,
// which loads SWC's 66 MB native binding into the server for good (24 MB resident, measured in
// bench part `startup`); this file is read as it is.

/** @type {import("next").NextConfig} */
const nextConfig = {
  // PGlite ships a WASM build and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  poweredByHeader: false,
  reactStrictMode: true,
  // forbidden(): a patient who opens a clinician page gets a real 403 (app/clinic/forbidden.tsx).
  experimental: { authInterrupts: true },
};

export default nextConfig;
