// Loaded into a test server with `node --import`: writes one line to CALL_TAP_FILE for every call
// the server starts to the service's data paths (…/users/self/…), at the moment it starts, so a
// test can count the calls a request made, and those made after its client went away, and see
// what each asked (path and query: which API version, which window). Test support only.
import { appendFileSync } from "node:fs";

const file = process.env.CALL_TAP_FILE;
const original = globalThis.fetch;

globalThis.fetch = function tappedFetch(input, init) {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (file && url.includes("/users/self/")) {
    const u = new URL(url);
    appendFileSync(file, `${Date.now()} ${u.pathname}${u.search}\n`);
  }
  return original(input, init);
};
