import { describe, expect, it } from "vitest";
import { type HostView, isGone, processStart, type WorkerRow } from "./workers";

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

describe.runIf(process.platform === "linux")("processStart", () => {
  it("reads this process's start, the same each time, and null for no process", () => {
    const start = processStart(process.pid);
    expect(start).toMatch(/^\d+$/);
    expect(processStart(process.pid)).toBe(start);
    expect(processStart(2 ** 22 + 1)).toBeNull();
  });
});
