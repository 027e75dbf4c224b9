import { z } from "zod";

/**
 * The clinician forms' fields, checked on the server. A mistake travels back to the form as a
 * code in the query (?error=password_short), never as free text, so a link cannot make our page
 * say something we did not write; FORM_ERRORS words each code for the person.
 */

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** Trimmed and in lower case: one address, one account, however it was typed. */
export const normalizeEmail = (value: string) => value.trim().toLowerCase();

export const emailSchema = z
  .string({ error: "email" })
  .transform(normalizeEmail)
  .pipe(z.email({ error: "email" }).max(254, { error: "email" }));

export const passwordSchema = z
  .string({ error: "password_short" })
  .min(PASSWORD_MIN, { error: "password_short" })
  .max(PASSWORD_MAX, { error: "password_long" });

const nameSchema = (code: string) =>
  z
    .string({ error: code })
    .transform((s) => s.trim().replace(/\s+/g, " "))
    .pipe(
      z
        .string()
        .min(1, { error: code })
        .max(120, { error: `${code}_long` }),
    );

export const signUpSchema = z.object({
  name: nameSchema("name"),
  email: emailSchema,
  password: passwordSchema,
});

export const clinicNameSchema = nameSchema("clinic_name");

/** A sign-in checks only that something was typed: any other rule would tell what an account is. */
export const signInSchema = z.object({
  email: z.string({ error: "credentials" }).transform(normalizeEmail).pipe(z.string().min(1).max(254)),
  password: z.string({ error: "credentials" }).min(1, { error: "credentials" }).max(PASSWORD_MAX),
});

export const invitationFormSchema = z.object({
  clinicId: z.string({ error: "clinic" }).min(1, { error: "clinic" }).max(64),
  email: emailSchema,
  role: z.enum(["clinician", "admin"], { error: "role" }).default("clinician"),
});

/** The sign-up form: an account, and either a new clinic's name or an invitation to join one. */
export const signUpFormSchema = signUpSchema
  .extend({ invitation: z.string().optional(), clinicName: z.string().optional() })
  .transform(({ invitation, clinicName, ...account }, ctx) => {
    if (invitation) return { account, joining: { invitation } as const };
    // Checked once the account's fields are right: the form shows their problems first.
    const name = clinicNameSchema.safeParse(clinicName);
    if (name.success) return { account, joining: { clinicName: name.data } as const };
    for (const issue of name.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
    return z.NEVER;
  });

/** The sign-in form, with an invitation to accept once signed in, or without. */
export const signInFormSchema = signInSchema.extend({ invitation: z.string().optional() });

/** The invitation form: an empty role is the default one. */
export const invitationFieldsSchema = invitationFormSchema.extend({
  role: z.preprocess((v) => (v === "" ? undefined : v), invitationFormSchema.shape.role),
});

/** yyyy-mm-dd of a real day, not in the future and not before 1900: a typo is caught here. */
const birthDateSchema = z
  .string({ error: "birth_date" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "birth_date" })
  .refine(
    (s) => {
      const ms = Date.parse(`${s}T00:00:00Z`);
      return (
        Number.isFinite(ms) &&
        new Date(ms).toISOString().startsWith(s) &&
        s >= "1900-01-01" &&
        ms <= Date.now()
      );
    },
    { error: "birth_date" },
  );

/** A clinician adds a patient: a name to know them by and, to tell namesakes apart, a birth date. */
export const patientFormSchema = z.object({
  clinicId: z.string({ error: "clinic" }).min(1, { error: "clinic" }).max(64),
  name: nameSchema("patient_name"),
  birthDate: z.preprocess((v) => (v === "" ? undefined : v), birthDateSchema.optional()),
});

/** The first problem's code: the form shows one message at a time, the first field first. */
export function firstErrorCode(error: z.ZodError, fallback = "invalid"): string {
  const message = error.issues[0]?.message;
  return message && message in FORM_ERRORS ? message : fallback;
}

export const FORM_ERRORS: Record<string, string> = {
  invalid: "Something in the form was not filled in as expected. Check each field and try again.",
  name: "Enter your name.",
  name_long: "Your name can be at most 120 characters.",
  clinic_name: "Enter your clinic's name.",
  clinic_name_long: "The clinic's name can be at most 120 characters.",
  email: "Enter a valid email address, like name@clinic.example.",
  password_short: `Choose a password of at least ${PASSWORD_MIN} characters; a few unrelated words are easy to remember.`,
  password_long: `A password can be at most ${PASSWORD_MAX} characters.`,
  email_taken:
    "An account with this email already exists. Sign in instead, or ask your clinic's administrator to invite it.",
  credentials: "The email or the password is not right. Check both and try again.",
  role: "Choose the role of the person you invite.",
  clinic: "This clinic could not be found; open the clinic page again.",
  invitation_invalid:
    "This invitation link is not valid. Ask your clinic's administrator for a new one, and copy the whole link.",
  invitation_expired:
    "This invitation has expired (they last 7 days). Ask your clinic's administrator for a new one.",
  invitation_used:
    "This invitation has already been used. Sign in, or ask your clinic's administrator for a new one.",
  invitation_email:
    "This invitation is for another email address. Use the address it was sent to, or ask for an invitation for yours.",
  already_member: "This person is already a member of the clinic.",
  patient_name: "Enter the patient's name.",
  connect_first: "Connect your CGM account first, then allow the clinic access.",
  already_shared: "You already share your data with this clinic. You can see and withdraw it under Sharing.",
  patient_name_long: "The patient's name can be at most 120 characters.",
  birth_date: "Enter the date of birth as a real, past day (year-month-day), or leave it empty.",
};

export function formErrorMessage(code: string | undefined): string | null {
  if (!code) return null;
  return FORM_ERRORS[code] ?? FORM_ERRORS.invalid ?? null;
}
