import Link from "next/link";

/** The sandbox's pages look like a different website on purpose: it stands for the real service. */
export function SandboxFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="min-h-screen bg-emerald-50 text-slate-900 dark:bg-slate-900 dark:text-slate-100">
      <header className="border-b border-emerald-200 bg-white dark:border-slate-700 dark:bg-slate-800">
        <div className="mx-auto flex max-w-2xl flex-wrap items-center justify-between gap-2 px-4 py-3">
          <Link href="/sandbox" className="font-semibold text-emerald-800 dark:text-emerald-300">
            Glucose Data Service · Sandbox
          </Link>
          <nav className="flex gap-4 text-sm">
            <Link className="underline" href="/sandbox/permissions">
              Permissions
            </Link>
            <Link className="underline" href="/sandbox/developer">
              Developer apps
            </Link>
          </nav>
        </div>
      </header>
      <main className="mx-auto max-w-2xl px-4 py-8">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <div className="mt-6 space-y-6">{children}</div>
      </main>
    </div>
  );
}

export function Notice({ tone, children }: { tone: "error" | "info"; children: React.ReactNode }) {
  const colors =
    tone === "error"
      ? "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
      : "border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100";
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-md border p-4 ${colors}`}>
      {children}
    </div>
  );
}

export function HiddenFields({ values }: { values: Record<string, string | undefined> }) {
  return (
    <>
      {Object.entries(values).map(([name, value]) =>
        value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
      )}
    </>
  );
}

export const buttonClass =
  "inline-flex min-h-11 items-center justify-center rounded-md px-4 py-2 font-medium focus:outline-none focus-visible:ring-4 focus-visible:ring-emerald-400";
