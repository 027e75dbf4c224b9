import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { clinicClient } from "../support/clinic-client";

/**
 * Notes, "Mark reviewed" and tags over HTTP, against the real server (issue 18, items 3 and 4):
 * who reads and who changes a note (author: edits; a colleague of the clinic: reads, 403 on
 * change; another clinic: 404; the patient: only shared clinicians' notes and their own; the
 * patient's notes: the clinic they share with, not another), the audit entries, bounded input
 * with 4xx that say why, the review in the population view, and tags that never cross clinics.
 */

const base = inject("baseUrl");
const { post, get, clinician, colleagueOf, text, addPatient, acceptAsPatient, patientIdIn } =
  clinicClient(base);

type Note = {
  id: string;
  authorKind: string;
  text: string;
  shared: boolean;
  mine: boolean;
  range: { startLocal: string; endLocal: string; startAt: string; endAt: string } | null;
};

const notesJson = async (path: string, cookie: string) => {
  const res = await get(path, cookie);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("private, no-store");
  return ((await res.json()) as { notes: Note[] }).notes;
};

describe("notes and reviews", () => {
  let clinicA: Awaited<ReturnType<typeof clinician>>;
  let colleague: string;
  let clinicB: Awaited<ReturnType<typeof clinician>>;
  let patientCookie: string;
  let patientId: string;
  let otherPatientId: string;
  const tag = randomUUID().slice(0, 6);

  beforeAll(async () => {
    clinicA = await clinician();
    clinicB = await clinician();
    colleague = await colleagueOf(clinicA, "Dr Colleague");
    const added = await addPatient(clinicA, `Nora Notes ${tag}`);
    patientId = patientIdIn(added.page, `Nora Notes ${tag}`);
    patientCookie = await acceptAsPatient(added.token, "SandboxUser8");
    // Clinic B has the same person on its list, but the patient never accepted: it sees nothing of theirs.
    const other = await addPatient(clinicB, `Nora Notes ${tag}`);
    otherPatientId = patientIdIn(other.page, `Nora Notes ${tag}`);
  }, 90_000);

  const notesPath = () => `/api/clinic/patients/${patientId}/notes`;

  it("a clinician's note: author edits and deletes; colleague reads, 403; another clinic 404; audited", async () => {
    const created = await post(
      notesPath(),
      {
        text: `Lows after exercise ${tag}`,
        start: "2026-01-05T08:00",
        end: "2026-01-05T12:30",
        clockOffset: "60",
      },
      { cookie: clinicA.cookie },
    );
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toBe(`/clinic/patients/${patientId}?note=saved#notes`);

    const mine = (await notesJson(notesPath(), clinicA.cookie)).find(
      (n) => n.text === `Lows after exercise ${tag}`,
    );
    expect(mine).toMatchObject({ authorKind: "clinician", shared: false, mine: true });
    // Typed on the receiver's clock, shown again on it, stored as the instant.
    expect(mine?.range?.startLocal).toBe("2026-01-05T08:00");
    expect(mine?.range?.endLocal).toBe("2026-01-05T12:30");
    const offsetMs = Date.parse("2026-01-05T08:00:00Z") - Date.parse(mine?.range?.startAt ?? "");
    expect(offsetMs % (15 * 60_000)).toBe(0);
    const id = mine?.id ?? "";

    // The clinician's page lists it and the patient's page of the clinic shows it with its edit form.
    const page = await text(await get(`/clinic/patients/${patientId}`, clinicA.cookie));
    expect(page).toContain(`Lows after exercise ${tag}`);
    expect(page).toContain(`action="/api/clinic/patients/${patientId}/notes/${id}"`);
    expect(page).toContain("2026-01-05 08:00 to 2026-01-05 12:30 on the patient's receiver clock");

    // A colleague reads it, without the author's buttons, and cannot change it.
    const seen = (await notesJson(notesPath(), colleague)).find((n) => n.id === id);
    expect(seen).toMatchObject({ mine: false });
    const colleaguePage = await text(await get(`/clinic/patients/${patientId}`, colleague));
    expect(colleaguePage).toContain(`Lows after exercise ${tag}`);
    expect(colleaguePage).not.toContain(`/notes/${id}"`);
    const edit = await post(`${notesPath()}/${id}`, { text: "changed" }, { cookie: colleague });
    expect(edit.status).toBe(403);
    expect((await edit.json()).message).toBe("Only the author of a note can change or delete it.");
    expect((await post(`${notesPath()}/${id}/delete`, {}, { cookie: colleague })).status).toBe(403);

    // Another clinic: the patient and the note are not there, whether by its own patient or this one.
    expect((await get(notesPath(), clinicB.cookie)).status).toBe(404);
    expect((await post(`${notesPath()}/${id}`, { text: "x" }, { cookie: clinicB.cookie })).status).toBe(404);
    const viaOwn = await post(
      `/api/clinic/patients/${otherPatientId}/notes/${id}`,
      { text: "x" },
      { cookie: clinicB.cookie },
    );
    expect(viaOwn.status).toBe(404);
    expect(await text(await get(`/clinic/patients/${otherPatientId}`, clinicB.cookie))).not.toContain(
      `Lows after exercise ${tag}`,
    );
    // The patient does not see an unshared note.
    expect((await notesJson("/api/notes", patientCookie)).some((n) => n.id === id)).toBe(false);

    // The author edits it (and shares it), then the patient sees it.
    const edited = await post(
      `${notesPath()}/${id}`,
      {
        text: `Lows after exercise, reduce basal ${tag}`,
        start: "2026-01-05T08:00",
        end: "2026-01-05T13:00",
        shared: "on",
      },
      { cookie: clinicA.cookie },
    );
    expect(edited.status).toBe(303);
    const forPatient = (await notesJson("/api/notes", patientCookie)).find((n) => n.id === id);
    expect(forPatient).toMatchObject({
      text: `Lows after exercise, reduce basal ${tag}`,
      shared: true,
      mine: false,
    });
    expect(forPatient?.range?.endLocal).toBe("2026-01-05T13:00");
    // The patient cannot change it either.
    expect((await post(`/api/notes/${id}`, { text: "mine now" }, { cookie: patientCookie })).status).toBe(
      403,
    );

    const deleted = await post(`${notesPath()}/${id}/delete`, {}, { cookie: clinicA.cookie });
    expect(deleted.status).toBe(303);
    expect((await notesJson(notesPath(), clinicA.cookie)).some((n) => n.id === id)).toBe(false);

    const log = await text(await get(`/clinic/audit?clinic=${clinicA.clinicId}`, clinicA.cookie));
    for (const action of ["note.created", "note.edited", "note.deleted", "view.notes"]) {
      const entry = new RegExp(
        `<tr[^>]*data-action="${action.replace(".", "\\.")}"[^>]*>(.*?)</tr>`,
        "s",
      ).exec(log)?.[1];
      expect(entry, action).toContain(`Nora Notes ${tag}`);
    }
    expect(log).toContain(`note ${id}`);
  }, 60_000);

  it("the patient's own notes reach the clinic they share with, never another; only shared clinicians' notes reach the patient", async () => {
    const own = await post(
      "/api/notes",
      { text: `New pump ${tag}`, start: "2026-01-10T09:00", end: "2026-01-11T09:00", returnTo: "/dashboard" },
      { cookie: patientCookie },
    );
    expect(own.status).toBe(303);
    expect(own.headers.get("location")).toBe("/dashboard?note=saved#notes");
    await post(notesPath(), { text: `Clinic only ${tag}` }, { cookie: clinicA.cookie });
    await post(notesPath(), { text: `For the patient ${tag}`, shared: "on" }, { cookie: clinicA.cookie });

    const patientSees = (await notesJson("/api/notes", patientCookie)).map((n) => n.text);
    expect(patientSees).toContain(`New pump ${tag}`);
    expect(patientSees).toContain(`For the patient ${tag}`);
    expect(patientSees).not.toContain(`Clinic only ${tag}`);
    // On the patient's overview too, under the trace.
    const overview = await get("/dashboard", patientCookie);
    expect(overview.status).toBe(200);
    expect(await text(overview)).toContain(`For the patient ${tag}`);
    const list = await text(await get("/dashboard/notes", patientCookie));
    expect(list).toContain(`For the patient ${tag}`);
    expect(list).toContain(`New pump ${tag}`);
    expect(list).toContain("on your receiver's clock");

    const clinicSees = await notesJson(notesPath(), clinicA.cookie);
    const pump = clinicSees.find((n) => n.text === `New pump ${tag}`);
    expect(pump).toMatchObject({ authorKind: "patient", mine: false });
    // A clinician cannot change the patient's note.
    expect((await post(`${notesPath()}/${pump?.id}`, { text: "x" }, { cookie: clinicA.cookie })).status).toBe(
      403,
    );
    // Clinic B, whose invitation the patient never accepted, sees none of it.
    expect(await text(await get(`/clinic/patients/${otherPatientId}`, clinicB.cookie))).not.toContain(
      `New pump ${tag}`,
    );
    // The patient deletes their own note.
    const gone = await post(
      `/api/notes/${pump?.id}/delete`,
      { returnTo: "/dashboard/notes" },
      { cookie: patientCookie },
    );
    expect(gone.status).toBe(303);
    expect(gone.headers.get("location")).toBe("/dashboard/notes?note=deleted#notes");
    expect((await notesJson(notesPath(), clinicA.cookie)).some((n) => n.id === pump?.id)).toBe(false);
  }, 60_000);

  it("refuses bad input with a 4xx that says what to fix", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ text: "   " }, "Write the note: its text is empty."],
      [{ text: "x".repeat(2001) }, "A note holds at most 2000 characters; this one has 2001. Shorten it."],
      [{ text: "a", start: "2026-01-05T08:00" }, "Give both the start and the end of the time range"],
      [
        { text: "a", start: "2026-01-05T09:00", end: "2026-01-05T08:00" },
        "The range must end after it starts.",
      ],
      [
        { text: "a", start: "2026-01-05T08:00", end: "2026-01-05T08:00" },
        "The range must end after it starts.",
      ],
      [
        { text: "a", start: "1999-12-31T08:00", end: "2026-01-05T08:00" },
        "between 1 January 2000 and 31 December 2099",
      ],
      [
        { text: "a", start: "2026-01-01T00:00", end: "2026-06-01T00:00" },
        "A note's range covers at most 90 days.",
      ],
      [{ text: "a", start: "2026-02-30T08:00", end: "2026-03-01T08:00" }, "Write the times as date and time"],
    ];
    for (const [fields, message] of cases) {
      const res = await post(notesPath(), fields, { cookie: clinicA.cookie });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect((await res.json()).message).toContain(message);
    }
    const review = await post(
      `/api/clinic/patients/${patientId}/review`,
      { periodStart: "2026-01-14", periodEnd: "2026-01-01" },
      { cookie: clinicA.cookie },
    );
    expect(review.status).toBe(400);
    expect((await review.json()).message).toContain("The period must end on or after its first day.");
    // Signed out: 401; a patient at the clinic's route: 404.
    expect((await post(notesPath(), { text: "a" })).status).toBe(401);
    expect((await post(notesPath(), { text: "a" }, { cookie: patientCookie })).status).toBe(404);
  }, 60_000);

  it("Mark reviewed saves who and the period, shown on the page and in the population view; audited", async () => {
    const res = await post(
      `/api/clinic/patients/${patientId}/review`,
      { periodStart: "2026-01-01", periodEnd: "2026-01-14" },
      { cookie: colleague },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/clinic/patients/${patientId}?reviewed=1#review`);
    const page = await text(await get(`/clinic/patients/${patientId}`, clinicA.cookie));
    expect(page).toMatch(
      /Last reviewed \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC by Dr Colleague, period 2026-01-01 to 2026-01-14\./,
    );
    const population = await text(await get(`/clinic/population?clinic=${clinicA.clinicId}`, clinicA.cookie));
    const row =
      new RegExp(`<tr[^>]*data-patient="${patientId}"[^>]*>(.*?)</tr>`, "s").exec(population)?.[1] ?? "";
    expect(row).toContain("by Dr Colleague");
    expect(row).toContain("2026-01-01 to 2026-01-14");
    // Another clinic's review of its own row does not show here, nor this one there.
    const popB = await text(await get(`/clinic/population?clinic=${clinicB.clinicId}`, clinicB.cookie));
    expect(popB).not.toContain("Dr Colleague");
    expect(
      (
        await post(
          `/api/clinic/patients/${patientId}/review`,
          { periodStart: "2026-01-01", periodEnd: "2026-01-02" },
          { cookie: clinicB.cookie },
        )
      ).status,
    ).toBe(404);
    const log = await text(await get(`/clinic/audit?clinic=${clinicA.clinicId}`, clinicA.cookie));
    const entry = /<tr[^>]*data-action="patient\.reviewed"[^>]*>(.*?)<\/tr>/s.exec(log)?.[1] ?? "";
    expect(entry).toContain("period 2026-01-01 to 2026-01-14");
  }, 60_000);
});

describe("tags", () => {
  it("belong to one clinic: set on a patient, filter the population, and another clinic's tag id is refused (404)", async () => {
    const clinicA = await clinician();
    const clinicB = await clinician();
    const tag = randomUUID().slice(0, 6);
    const a1 = patientIdIn((await addPatient(clinicA, `Tina Tagged ${tag}`)).page, `Tina Tagged ${tag}`);
    const a2 = patientIdIn((await addPatient(clinicA, `Uma Untagged ${tag}`)).page, `Uma Untagged ${tag}`);
    const b1 = patientIdIn((await addPatient(clinicB, `Bea Other ${tag}`)).page, `Bea Other ${tag}`);

    const create = (clinic: { cookie: string; clinicId: string }, name: string) =>
      post("/api/clinic/tags", { clinicId: clinic.clinicId, name }, { cookie: clinic.cookie });
    expect((await create(clinicA, "Pump")).status).toBe(303);
    expect((await create(clinicB, "Pump")).status).toBe(303);
    const dup = await create(clinicA, " pump ");
    expect(dup.status).toBe(409);
    expect((await dup.json()).message).toContain("has a tag of this name already");
    expect((await create(clinicA, "")).status).toBe(400);
    expect((await create(clinicA, "x".repeat(41))).status).toBe(400);
    // Not a member of clinic A: as if it did not exist.
    expect(
      (
        await post(
          "/api/clinic/tags",
          { clinicId: clinicA.clinicId, name: "Spy" },
          { cookie: clinicB.cookie },
        )
      ).status,
    ).toBe(404);

    const tagIdOf = async (clinic: { cookie: string; clinicId: string }) => {
      const page = await text(await get(`/clinic/population?clinic=${clinic.clinicId}`, clinic.cookie));
      return /<li[^>]*data-tag="([0-9a-f-]{36})"/.exec(page)?.[1] ?? "";
    };
    const tagA = await tagIdOf(clinicA);
    const tagB = await tagIdOf(clinicB);
    expect(tagA).not.toBe(tagB);

    const setTags = (patient: string, ids: string[], cookie: string) =>
      post(`/api/clinic/patients/${patient}/tags`, Object.fromEntries(ids.map((id) => [`tag_${id}`, "on"])), {
        cookie,
      });
    expect((await setTags(a1, [tagA], clinicA.cookie)).status).toBe(303);
    // Another clinic's tag on this clinic's patient: 404, and the patient's tags do not change.
    const foreign = await setTags(a2, [tagB], clinicA.cookie);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).message).toContain("This tag could not be found in the clinic.");
    // Clinic B cannot tag clinic A's patient, even with its own tag.
    expect((await setTags(a1, [tagB], clinicB.cookie)).status).toBe(404);
    expect((await setTags(b1, [tagA], clinicB.cookie)).status).toBe(404);

    const filtered = await get(`/clinic/population?clinic=${clinicA.clinicId}&tag=${tagA}`, clinicA.cookie);
    expect(filtered.status).toBe(200);
    const html = await text(filtered);
    expect(html).toContain(`data-patient="${a1}"`);
    expect(html).not.toContain(`data-patient="${a2}"`);
    expect(html).toContain("Patients tagged <strong>Pump</strong>: 1.");
    // Another clinic's tag id, or a made-up one, in the filter: 404.
    expect(
      (await get(`/clinic/population?clinic=${clinicA.clinicId}&tag=${tagB}`, clinicA.cookie)).status,
    ).toBe(404);
    expect((await get(`/clinic/population?clinic=${clinicA.clinicId}&tag=nope`, clinicA.cookie)).status).toBe(
      404,
    );
    // Sorted by tag: the tagged patient first.
    const sorted = await text(
      await get(`/clinic/population?clinic=${clinicA.clinicId}&sort=tags`, clinicA.cookie),
    );
    expect(sorted.indexOf(`data-patient="${a1}"`)).toBeLessThan(sorted.indexOf(`data-patient="${a2}"`));
    expect(sorted).toMatch(/aria-sort="ascending"[^>]*>\s*<button[^>]*>Tags/);

    // Renamed and deleted by the clinic only; another clinic's tag id: 404.
    expect(
      (
        await post(
          `/api/clinic/tags/${tagB}`,
          { clinicId: clinicA.clinicId, name: "Mine" },
          { cookie: clinicA.cookie },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await post(
          `/api/clinic/tags/${tagB}/delete`,
          { clinicId: clinicA.clinicId },
          { cookie: clinicA.cookie },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await post(
          `/api/clinic/tags/${tagA}`,
          { clinicId: clinicA.clinicId, name: "Insulin pump" },
          { cookie: clinicA.cookie },
        )
      ).status,
    ).toBe(303);
    expect(await text(await get(`/clinic/patients/${a1}`, clinicA.cookie))).toContain(
      "Tagged: Insulin pump.",
    );
    expect(
      (
        await post(
          `/api/clinic/tags/${tagA}/delete`,
          { clinicId: clinicA.clinicId },
          { cookie: clinicA.cookie },
        )
      ).status,
    ).toBe(303);
    expect(await text(await get(`/clinic/patients/${a1}`, clinicA.cookie))).toContain("No tags.");
    // Clinic B's tag is untouched.
    expect(await text(await get(`/clinic/population?clinic=${clinicB.clinicId}`, clinicB.cookie))).toContain(
      'value="Pump"',
    );

    const log = await text(await get(`/clinic/audit?clinic=${clinicA.clinicId}`, clinicA.cookie));
    for (const action of ["tag.created", "patient.tags_set", "tag.renamed", "tag.deleted"])
      expect(log, action).toContain(`data-action="${action}"`);
  }, 90_000);
});
