import type { IdentityLine } from "@/lib/reports/identity/identity";

/**
 * Whose report this is and of what (lib/reports/identity/identity.ts decides the words): at the
 * top of the page, the print and the PDF; on paper one flowing paragraph (app/globals.css), so the
 * AGP stays on one page.
 */
export function ReportIdentity({ lines }: { lines: readonly IdentityLine[] }) {
  return (
    <section aria-label="About this report" className="report-identity text-sm">
      <dl
        data-testid="report-identity"
        className="grid gap-x-4 gap-y-1 rounded-md border border-slate-300 p-3 sm:grid-cols-2 dark:border-slate-600"
      >
        {lines.map((line) => (
          <div key={line.key} data-line={line.key} className="flex gap-1.5">
            <dt className="shrink-0 font-semibold">{line.label}:</dt>
            <dd className="min-w-0 break-words">{line.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
