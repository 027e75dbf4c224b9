import { CopyLinkButton } from "./CopyLinkButton";

/**
 * The parts of the clinician forms: plain HTML forms (they work without JavaScript), with the
 * browser's own checks (required, type, length) first and the server's answer, if any, on top.
 */

export const inputClass =
  "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-800";

export const primaryButtonClass =
  "rounded-lg bg-blue-700 px-5 py-2.5 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700";

export const secondaryButtonClass =
  "rounded-lg border border-slate-400 px-4 py-2 font-medium hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:border-slate-600 dark:hover:bg-slate-800";

export const linkClass = "text-blue-700 underline dark:text-blue-300";

export function Field({
  id,
  label,
  hint,
  ...input
}: {
  id: string;
  label: string;
  hint?: string;
} & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <label htmlFor={id} className="block font-medium">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
      <input
        id={id}
        name={id}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={inputClass}
        {...input}
      />
    </div>
  );
}

/** The server's message about the last attempt; announced when the page opens with it. */
export function FormError({ message, id = "form-error" }: { message: string | null; id?: string }) {
  if (!message) return null;
  return (
    <div
      id={id}
      role="alert"
      data-testid="form-error"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      {message}
    </div>
  );
}

export function PasswordField({ id = "password", label = "Password", newPassword = false }) {
  return (
    <Field
      id={id}
      name="password"
      label={label}
      type="password"
      required
      maxLength={256}
      {...(newPassword
        ? {
            minLength: 12,
            autoComplete: "new-password",
            hint: "At least 12 characters; a few unrelated words work well.",
          }
        : { autoComplete: "current-password" })}
    />
  );
}

/**
 * A new invitation's link, shown once: the server keeps only its hash, so this is the one chance
 * to copy it. The message says who it is for and how long it works.
 */
export function OneTimeLink({
  id,
  inputId,
  testId,
  label,
  link,
  qrSvg,
  children,
}: {
  id: string;
  inputId: string;
  testId: string;
  /** The field's name for assistive technology. */
  label: string;
  link: string;
  /** The link as a QR code (SVG made on the server), to scan from the screen; none: no code shown. */
  qrSvg?: string;
  children: React.ReactNode;
}) {
  return (
    <div
      id={id}
      className="space-y-2 rounded-md border border-emerald-300 bg-emerald-50 p-3 dark:border-emerald-800 dark:bg-emerald-950"
    >
      <p className="font-medium">{children}</p>
      <label htmlFor={inputId} className="sr-only">
        {label}
      </label>
      <input
        id={inputId}
        data-testid={testId}
        readOnly
        value={link}
        className={`${inputClass} font-mono text-sm`}
      />
      <CopyLinkButton targetId={inputId} />
      {qrSvg && (
        <figure className="flex flex-wrap items-center gap-3">
          <div
            role="img"
            aria-label={`QR code of the link: ${label}`}
            data-testid={`${testId}-qr`}
            // The SVG is the qrcode package's own output for this link, made on the server.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: markup we generated, no user text in it
            dangerouslySetInnerHTML={{ __html: qrSvg }}
            className="h-44 w-44 shrink-0 rounded bg-white p-1 [&>svg]:h-full [&>svg]:w-full"
          />
          <figcaption className="max-w-xs text-sm">
            Or let the patient scan this code with their phone&apos;s camera: it opens the same link.
          </figcaption>
        </figure>
      )}
    </div>
  );
}
