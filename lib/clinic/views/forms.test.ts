import { describe, expect, it } from "vitest";
import {
  emailSchema,
  FORM_ERRORS,
  firstErrorCode,
  formErrorMessage,
  invitationFormSchema,
  normalizeEmail,
  patientFormSchema,
  signInSchema,
  signUpSchema,
} from "./forms";

describe("emails", () => {
  it("are trimmed and lower-cased", () => {
    expect(normalizeEmail("  Dr.Who@Clinic.Example \n")).toBe("dr.who@clinic.example");
    expect(emailSchema.parse(" A@B.example ")).toBe("a@b.example");
  });

  it.each(["", "   ", "no-at-sign", "two@@example.org", "a@b", `${"x".repeat(250)}@b.example`])(
    "refuses %j",
    (value) => {
      const result = emailSchema.safeParse(value);
      expect(result.success).toBe(false);
      if (!result.success) expect(firstErrorCode(result.error)).toBe("email");
    },
  );
});

describe("sign-up", () => {
  const ok = { name: " Ada  Lovelace ", email: "ADA@clinic.example", password: "twelve chars" };

  it("accepts a 12-character password and tidies the name and email", () => {
    expect(signUpSchema.parse(ok)).toEqual({
      name: "Ada Lovelace",
      email: "ada@clinic.example",
      password: "twelve chars",
    });
  });

  it.each([
    [{ password: "eleven char" }, "password_short"],
    [{ password: "x".repeat(257) }, "password_long"],
    [{ name: "   " }, "name"],
    [{ email: "ada" }, "email"],
    [{ password: undefined }, "password_short"],
  ])("refuses %j with the code %s", (change, code) => {
    const result = signUpSchema.safeParse({ ...ok, ...change });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstErrorCode(result.error)).toBe(code);
  });

  it("keeps a 256-character password", () => {
    expect(signUpSchema.safeParse({ ...ok, password: "x".repeat(256) }).success).toBe(true);
  });
});

describe("sign-in", () => {
  it("says only 'credentials' whatever is missing: no hint about what an account looks like", () => {
    for (const form of [{}, { email: "a@b.example" }, { email: "", password: "x" }]) {
      const result = signInSchema.safeParse(form);
      expect(result.success).toBe(false);
      if (!result.success) expect(firstErrorCode(result.error, "credentials")).toBe("credentials");
    }
  });
});

describe("invitations", () => {
  it("default to the clinician role", () => {
    expect(invitationFormSchema.parse({ clinicId: "c1", email: "B@x.example" })).toEqual({
      clinicId: "c1",
      email: "b@x.example",
      role: "clinician",
    });
  });

  it("refuse other roles", () => {
    const result = invitationFormSchema.safeParse({ clinicId: "c1", email: "b@x.example", role: "owner" });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstErrorCode(result.error)).toBe("role");
  });
});

describe("messages", () => {
  it("word every code, and an unknown code as a general message, never echoing it", () => {
    expect(formErrorMessage(undefined)).toBeNull();
    expect(formErrorMessage("email_taken")).toBe(FORM_ERRORS.email_taken);
    expect(formErrorMessage("<script>")).toBe(FORM_ERRORS.invalid);
  });
});

describe("the add-a-patient form", () => {
  const parse = (fields: Record<string, unknown>) =>
    patientFormSchema.safeParse({ clinicId: "c1", name: "Pat", ...fields });

  it("takes a name and, optionally, a real past date of birth", () => {
    expect(parse({ name: "  Pat   Example " }).data).toEqual({ clinicId: "c1", name: "Pat Example" });
    expect(parse({ birthDate: "" }).data?.birthDate).toBeUndefined();
    expect(parse({ birthDate: "2000-02-29" }).data?.birthDate).toBe("2000-02-29");
    expect(parse({ birthDate: "1900-01-01" }).success).toBe(true);
  });

  it("refuses days that do not exist, the future, before 1900 and other shapes", () => {
    for (const birthDate of [
      "1999-02-29",
      "2026-13-01",
      "1899-12-31",
      "2999-01-01",
      "01/02/1990",
      "1990-1-2",
    ]) {
      const r = parse({ birthDate });
      expect(r.success, birthDate).toBe(false);
      if (!r.success) expect(firstErrorCode(r.error)).toBe("birth_date");
    }
    const blank = parse({ name: "   " });
    expect(blank.success).toBe(false);
    if (!blank.success) expect(firstErrorCode(blank.error)).toBe("patient_name");
  });
});
