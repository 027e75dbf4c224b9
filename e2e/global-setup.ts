import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startAppServer, UNLIMITED_CALL_BUDGET } from "../test/support/app-server";

/**
 * Starts one production server for the browser tests; its URL reaches the tests as baseURL. The
 * server records the tokens the service issues to it (test/support/token-tap.mjs) for the leak check.
 * It reads the service with the API version of CGM_API_VERSION: v3 unless that says v2, as the app.
 */
export default async function globalSetup() {
  const tapFile = path.join(mkdtempSync(path.join(tmpdir(), "glucose-e2e-tap-")), "issued-tokens.txt");
  const tap = pathToFileURL(path.join(process.cwd(), "test/support/token-tap.mjs")).href;
  const apiVersion = process.env.CGM_API_VERSION === "v2" ? "v2" : "v3";
  const server = await startAppServer({
    ...UNLIMITED_CALL_BUDGET,
    CGM_API_VERSION: apiVersion,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${tap}`.trim(),
    TOKEN_TAP_FILE: tapFile,
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_API_VERSION = apiVersion;
  process.env.E2E_DATA_DIR = server.dataDir;
  process.env.E2E_TOKEN_TAP_FILE = tapFile;
  return async () => {
    await server.stop();
  };
}
