import { describe, expect, it } from "vitest";
import {
  type ClinicChoice,
  clinicChoiceSentence,
  targetGroupForClinic,
  targetGroupForPatient,
  targetGroupSentence,
} from "./target-group";

const clinic = (
  group: ClinicChoice["group"],
  setAt = "2026-03-01",
  clinicName = "Northside",
): ClinicChoice => ({
  clinicName,
  group,
  setAt: new Date(setAt),
});

describe("targetGroupForClinic: the clinic's views", () => {
  it("uses the clinic's choice over the patient's", () => {
    expect(targetGroupForClinic(clinic("pregnancy"), "standard")).toMatchObject({
      group: "pregnancy",
      source: "clinic",
      own: "standard",
    });
  });

  it("falls back to the patient's choice, then to the standard goals", () => {
    expect(targetGroupForClinic(null, "olderHighRisk")).toMatchObject({
      group: "olderHighRisk",
      source: "patient",
    });
    expect(targetGroupForClinic(null, null)).toMatchObject({ group: "standard", source: "default" });
  });
});

describe("targetGroupForPatient: the patient's own views", () => {
  it("keeps the patient's own choice, and still carries the clinic's to show them", () => {
    const r = targetGroupForPatient("standard", [clinic("pregnancy")]);
    expect(r).toMatchObject({ group: "standard", source: "patient" });
    expect(r.clinic?.group).toBe("pregnancy");
  });

  it("follows the clinic's choice while the patient has chosen none", () => {
    expect(targetGroupForPatient(null, [clinic("pregnancy")])).toMatchObject({
      group: "pregnancy",
      source: "clinic",
    });
  });

  it("takes the latest choice when several clinics set one", () => {
    const r = targetGroupForPatient(null, [
      clinic("olderHighRisk", "2026-03-02", "A"),
      clinic("pregnancy", "2026-03-05", "B"),
      clinic("standard", "2026-03-01", "C"),
    ]);
    expect(r.group).toBe("pregnancy");
    expect(r.clinic?.clinicName).toBe("B");
  });

  it("uses the standard goals when nobody chose", () => {
    expect(targetGroupForPatient(null, [])).toEqual({
      group: "standard",
      source: "default",
      own: null,
      clinic: null,
    });
  });
});

describe("the words", () => {
  it("tells the patient what their clinic set, and which goals their own pages use", () => {
    expect(clinicChoiceSentence(clinic("pregnancy"), null)).toBe(
      "Your clinic (Northside) has set your goals to: Pregnancy, type 1 diabetes. Your pages use them too.",
    );
    expect(clinicChoiceSentence(clinic("pregnancy"), "standard")).toContain(
      "Your own pages use the goals you chose (Type 1 and type 2 diabetes); your clinic's pages use theirs.",
    );
  });

  it("says which group a view uses and whose choice it is", () => {
    expect(targetGroupSentence(targetGroupForClinic(clinic("pregnancy"), null), "clinic")).toBe(
      "Goals: Pregnancy, type 1 diabetes (set by the clinic).",
    );
    expect(targetGroupSentence(targetGroupForPatient("olderHighRisk", []), "patient")).toBe(
      "Goals: Older or high-risk, type 1 or type 2 (chosen by you).",
    );
    expect(targetGroupSentence(targetGroupForPatient(null, []), "patient")).toBe(
      "Goals: Type 1 and type 2 diabetes (the standard goals; none chosen).",
    );
  });
});
