import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import "vitest";
import type { TestProject } from "vitest/node";
import { startAppServer, UNLIMITED_CALL_BUDGET } from "../support/app-server";
import { emptyDatabase } from "../support/database";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The API version the server reads the service with (CGM_API_VERSION of the test run). */
    apiVersion: "v2" | "v3";
    /** The server's data folder: its generated secrets (the dashboard app's client secret). */
    dataDir: string;
    /** The server's process id: what it holds in memory is read from /proc. */
    serverPid: number;
  }
}

/**
 * One real app server for the HTTP suites: PGlite in a fresh folder by default, or the PostgreSQL
 * of TEST_DATABASE_URL (CI runs the suites once on each), reading the service with the API version
 * of CGM_API_VERSION (default v3, as the app's; CI runs the suites in both).
 */
export default async function setup(project: TestProject) {
  const apiVersion = process.env.CGM_API_VERSION === "v2" ? "v2" : "v3";
  const env: Record<string, string> = { ...UNLIMITED_CALL_BUDGET, CGM_API_VERSION: apiVersion };
  if (process.env.TEST_DATABASE_URL) {
    await emptyDatabase(process.env.TEST_DATABASE_URL);
    env.DATABASE_URL = process.env.TEST_DATABASE_URL;
  }
  // The server writes down the tokens the service issues to it, for the log leak check.
  const dataDir = mkdtempSync(path.join(tmpdir(), "glucose-http-"));
  const tap = pathToFileURL(path.resolve("test/support/token-tap.mjs")).href;
  env.DATA_DIR = dataDir;
  env.TOKEN_TAP_FILE = path.join(dataDir, "issued-tokens.txt");
  env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import ${tap}`.trim();
  const server = await startAppServer(env);
  project.provide("baseUrl", server.url);
  project.provide("apiVersion", apiVersion);
  project.provide("dataDir", server.dataDir);
  project.provide("serverPid", server.pid);
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
