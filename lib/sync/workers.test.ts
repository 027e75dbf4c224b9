import { describe, expect, it } from "vitest";
import { type HostView, isGone, pidScope, processStart, type WorkerRow } from "./workers";

const here: HostView = {
  host: "box/boot-1",
  pid: 100,
  own: new Set(["100-pass"]),
  exists: (pid) => pid === 100 || pid === 200,
  startOf: (pid) => (pid === 200 ? "5000" : pid === 100 ? "4000" : null),
};
const worker = (over: Partial<WorkerRow>): WorkerRow => ({
  id: "w",
  host: "box/boot-1",
  pid: 200,
  processStart: "5000",
  heartbeatAt: new Date(),
  ...over,
});

describe("isGone: a lease holder of this machine that certainly no longer runs", () => {
  it("keeps a running process's worker", () => {
    expect(isGone(worker({}), here)).toBe(false);
  });
  it("drops a worker whose process is gone", () => {
    expect(isGone(worker({ pid: 300 }), here)).toBe(true);
  });
  it("drops a worker whose pid now names a process started at another time", () => {
    expect(isGone(worker({ processStart: "4999" }), here)).toBe(true);
  });
  it("keeps a worker whose start is unknown while its pid exists (judged by its heartbeat)", () => {
    expect(isGone(worker({ processStart: null }), here)).toBe(false);
  });
  it("drops a worker with this process's pid that is not one of its passes (a previous run)", () => {
    expect(isGone(worker({ id: "old-run", pid: 100, processStart: "4000" }), here)).toBe(true);
    expect(isGone(worker({ id: "100-pass", pid: 100, processStart: "4000" }), here)).toBe(false);
  });
  it("leaves another machine's workers to their heartbeat", () => {
    expect(isGone(worker({ host: "other/boot-2", pid: 300 }), here)).toBe(false);
  });
});

describe("pid scopes: where a pid names the same process", () => {
  // Two containers on one kernel with one hostname (host network, or replicas): one boot id,
  // two pid namespaces. Each sees only its own processes, and both may run as pid 1.
  const a = pidScope("app", "boot-1", "pid:[4026531836]");
  const b = pidScope("app", "boot-1", "pid:[4026532999]");
  const inA: HostView = {
    host: a,
    pid: 1,
    own: new Set(["a-pass"]),
    exists: (pid) => pid === 1,
    startOf: () => "10",
  };

  it("same hostname and boot id, different pid namespace: not judged by pid", () => {
    expect(a).not.toBe(b);
    // B's worker: pid 1 (A's own pid, not one of A's passes) or a pid A cannot see.
    expect(isGone(worker({ id: "b-pass", host: b ?? "", pid: 1, processStart: "10" }), inA)).toBe(false);
    expect(isGone(worker({ id: "b-pass-2", host: b ?? "", pid: 57, processStart: "99" }), inA)).toBe(false);
    // A's own previous run, in its own namespace, is still recognised.
    expect(isGone(worker({ id: "a-old-run", host: a ?? "", pid: 1, processStart: "10" }), inA)).toBe(true);
  });

  it("an unreadable pid namespace: no scope, every other worker judged by its heartbeat alone", () => {
    expect(pidScope("app", "boot-1", null)).toBeNull();
    const blind: HostView = { ...inA, host: null };
    expect(isGone(worker({ id: "old", host: "app/boot-1", pid: 1 }), blind)).toBe(false);
    expect(isGone(worker({ id: "x", host: "app/boot-1", pid: 300 }), blind)).toBe(false);
  });

  it("off Linux, pids are the machine's", () => {
    expect(pidScope("mac", null, null, false)).toBe("mac");
  });
});

describe.runIf(process.platform === "linux")("processStart", () => {
  it("reads this process's start, the same each time, and null for no process", () => {
    const start = processStart(process.pid);
    expect(start).toMatch(/^\d+$/);
    expect(processStart(process.pid)).toBe(start);
    expect(processStart(2 ** 22 + 1)).toBeNull();
  });
});
