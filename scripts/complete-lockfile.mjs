// npm records in package-lock.json only the platform packages the registry served. The registry
// reachable here serves only linux-x64 builds, so `npm ci` then refuses the lock ("Missing: … from
// lock file"). This adds each missing optional platform package as an entry tagged with its os and
// cpu, so that npm skips it as not for this platform instead of fetching it. Run after `npm install`.
import { readFileSync, writeFileSync } from "node:fs";

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const platformOf = (name) => {
  const os = ["darwin", "win32", "android", "freebsd", "linux", "openbsd", "sunos", "aix"].find((o) =>
    name.includes(o),
  );
  const cpu = ["arm64", "x64", "ia32", "arm", "wasm32", "ppc64", "s390x", "riscv64", "loong64"].find((c) =>
    new RegExp(`[-/]${c}([-/]|$)`).test(name.replace(/gnueabihf|msvc|musl|gnu|wasi/g, "")),
  );
  return { os, cpu, musl: name.includes("musl") };
};
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    const nested = `${path}/node_modules/${dep}`;
    if (lock.packages[key] || lock.packages[nested]) continue;
    const { os, cpu, musl } = platformOf(dep);
    lock.packages[key] = {
      version,
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(musl ? { libc: ["musl"] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
