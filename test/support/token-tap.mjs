// Loaded into the browser-test server with `node --import`: writes down every token the service
// issues to the dashboard (each token response's access and refresh token, one per line), so the
// leak check knows exactly which strings must never reach the browser. Test support only.
import { appendFileSync } from "node:fs";

const file = process.env.TOKEN_TAP_FILE;
const original = globalThis.fetch;

globalThis.fetch = async function tappedFetch(input, init) {
  const response = await original(input, init);
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (file && url.includes("/oauth2/token") && response.ok) {
    try {
      const body = JSON.parse(await response.clone().text());
      for (const key of ["access_token", "refresh_token"]) {
        if (typeof body[key] === "string") appendFileSync(file, `${body[key]}\n`);
      }
    } catch {
      // Not JSON: nothing was issued.
    }
  }
  return response;
};
