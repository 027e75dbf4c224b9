import { startAppServer } from "../test/support/app-server";

/** Starts one production server for the browser tests; its URL reaches the tests as baseURL. */
export default async function globalSetup() {
  const server = await startAppServer();
  process.env.E2E_BASE_URL = server.url;
  return async () => {
    await server.stop();
  };
}
