import "server-only";
import { dashboardApp } from "@/lib/platform/config/dashboard-app";
import { type CgmApiVersion, env } from "@/lib/platform/env";

/** Where the service is and who we are to it; the secret stays on the server. */
export interface ServiceConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  maxWindowDays: number;
  /** The longest window one request may read (CGM_MAX_REQUEST_DAYS). */
  maxRequestDays: number;
  /** The API version the app reads the service's data with (CGM_API_VERSION). */
  apiVersion: CgmApiVersion;
}

export function serviceConfig(): ServiceConfig {
  const e = env();
  return {
    baseUrl: e.CGM_API_BASE_URL,
    ...dashboardApp(),
    maxWindowDays: e.CGM_MAX_WINDOW_DAYS,
    maxRequestDays: e.CGM_MAX_REQUEST_DAYS,
    apiVersion: e.CGM_API_VERSION,
  };
}
