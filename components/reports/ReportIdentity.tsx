import type { IdentityLine } from "@/lib/reports/identity/identity";

/**
 * Whose report this is and of what (lib/reports/identity/identity.ts decides the words): at the
 * top of the page, the print and the PDF, in two columns on paper so the AGP stays on one page.
 */
export function ReportIdentity({ lines }: { lines: readonly IdentityLine[] }) {
  return (
    <section aria-label="About this report" className="report-identity text-sm print:text-[8pt]">
      <dl
        data-testid="report-identity"
        className="grid gap-x-4 gap-y-0.5 rounded-md border border-slate-300 p-3 sm:grid-cols-2 print:grid-cols-2 print:gap-y-0 print:p-1.5 dark:border-slate-700"
      >
        {lines.map((line) => (
          <div key={line.key} data-line={line.key} className="flex gap-2">
            <dt className="shrink-0 font-semibold">{line.label}:</dt>
            <dd>{line.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
