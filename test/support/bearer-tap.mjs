// Loaded into a test server with `node --import`: writes one line to BEARER_TAP_FILE for every
// call the server makes to the service's data paths (…/users/self/…), once it is answered: a
// fingerprint of the bearer token it carried (the first 16 hex digits of its SHA-256, never the
// token), the status and the path. So a test can tell which token a request used, and whether the
// service refused it. Test support only.
import { createHash } from "node:crypto";
import { appendFileSync } from "node:fs";

const file = process.env.BEARER_TAP_FILE;
const original = globalThis.fetch;

function bearerOf(init) {
  const headers = new Headers(init?.headers);
  const value = headers.get("authorization") ?? "";
  return value.startsWith("Bearer ") ? value.slice(7) : "";
}

globalThis.fetch = async function tappedFetch(input, init) {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const response = await original(input, init);
  if (file && url.includes("/users/self/")) {
    const token = bearerOf(init);
    const fingerprint = token ? createHash("sha256").update(token).digest("hex").slice(0, 16) : "-";
    appendFileSync(file, `${fingerprint} ${response.status} ${new URL(url).pathname}\n`);
  }
  return response;
};
