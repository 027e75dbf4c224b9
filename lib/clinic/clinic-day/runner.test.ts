import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { GAVE_UP } from "./policy";

/**
 * The runner's queue statements on a real database (PGlite, migrated as the server does): the cap
 * on attempts, a claim that skips an item at the cap, and the retention's sweep.
 */

let dataDir: string;
let database: Db;
let runner: typeof import("./runner");
let schema: typeof import("@/lib/db").schema;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "clinic-day-runner-"));
  process.env.DATA_DIR = dataDir;
  const dbModule = await import("@/lib/db");
  schema = dbModule.schema;
  database = await dbModule.db();
  runner = await import("./runner");
  await database.insert(schema.clinics).values({ id: "c1", name: "Clinic" });
}, 60_000);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function job(
  id: string,
  items: Array<Partial<typeof schema.clinicDayItems.$inferInsert> & { id: string }>,
) {
  await database.insert(schema.clinicDayJobs).values({ id, clinicId: "c1", selection: "All", days: 14 });
  await database
    .insert(schema.clinicDayItems)
    .values(items.map((i) => ({ jobId: id, clinicId: "c1", patientName: `P ${i.id}`, ...i })));
}

const itemOf = async (id: string) =>
  (await database.select().from(schema.clinicDayItems).where(eq(schema.clinicDayItems.id, id)))[0];

describe("the clinic day's queue", () => {
  it("fails an item cut short at its last attempt, in words, and claims the one still under the cap", async () => {
    const past = new Date(Date.now() - 60_000);
    await job("j-cap", [
      { id: "at-cap", state: "running", attempts: 5, leasedBy: "clinic-day:gone", leaseUntil: past },
      { id: "under", state: "running", attempts: 4, leasedBy: "clinic-day:gone", leaseUntil: past },
    ]);
    await runner.giveUpStuck(database);
    expect(await itemOf("at-cap")).toMatchObject({ state: "failed", error: GAVE_UP, leasedBy: null });
    expect((await itemOf("at-cap"))?.finishedAt).not.toBeNull();
    expect(await itemOf("under")).toMatchObject({ state: "running" });
    const claimed = await runner.claim(database, "clinic-day:me", 5, 60);
    expect(claimed.map((c) => [c.id, c.attempts])).toEqual([["under", 5]]);
  });

  it("fails an item whose render keeps running out of the call budget at its last attempt", async () => {
    await job("j-later", [{ id: "busy", state: "running", attempts: 5, leasedBy: "clinic-day:me" }]);
    const item: import("./runner").Claimed = {
      id: "busy",
      attempts: 5,
      jobId: "j-later",
      clinicPatientId: null,
      patientName: "P busy",
      days: 14,
      createdBy: null,
    };
    await runner.settle(database, "clinic-day:me", item, { kind: "later" });
    expect(await itemOf("busy")).toMatchObject({ state: "failed", error: GAVE_UP });
    await database
      .update(schema.clinicDayItems)
      .set({ state: "running", attempts: 2, leasedBy: "clinic-day:me", error: null })
      .where(eq(schema.clinicDayItems.id, "busy"));
    await runner.settle(database, "clinic-day:me", { ...item, attempts: 2 }, { kind: "later" });
    expect(await itemOf("busy")).toMatchObject({ state: "pending", error: null });
  });

  it("deletes the PDFs of packets finished longer ago than the retention, and only those", async () => {
    const pdf = Buffer.from("%PDF-1.7 test");
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
    await job("j-old", [
      { id: "old-1", state: "done", pdf, finishedAt: hoursAgo(3) },
      { id: "old-2", state: "failed", error: "x", finishedAt: hoursAgo(2.5) },
    ]);
    await job("j-new", [{ id: "new-1", state: "done", pdf, finishedAt: hoursAgo(1) }]);
    // Still being prepared (a Retry): nothing of it goes, however old its first PDFs.
    await job("j-open", [
      { id: "open-1", state: "done", pdf, finishedAt: hoursAgo(5) },
      { id: "open-2", state: "pending" },
    ]);
    await runner.sweepExpired(database, 2);
    expect((await itemOf("old-1"))?.pdf).toBeNull();
    expect((await itemOf("old-1"))?.state).toBe("done");
    expect((await itemOf("new-1"))?.pdf).toEqual(pdf);
    expect((await itemOf("open-1"))?.pdf).toEqual(pdf);
  });
});
