import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships a WASM build and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  poweredByHeader: false,
  reactStrictMode: true,
  // forbidden(): a patient who opens a clinician page gets a real 403 (app/clinic/forbidden.tsx).
  experimental: { authInterrupts: true },
};

export default nextConfig;
