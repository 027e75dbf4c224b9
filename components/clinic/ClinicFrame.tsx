import { AppHeader } from "@/components/layout/AppHeader";

/** The clinician pages' frame: the header (with sign-out when signed in) and a titled column. */
export function ClinicFrame({
  title,
  signedIn,
  wide = false,
  badge,
  children,
}: {
  title: string;
  signedIn: boolean;
  /** true: a wide column; "full": the window's width (up to 96rem), for wide tables. */
  wide?: boolean | "full";
  badge?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <>
      <AppHeader signedIn={signedIn} />
      <main
        className={`mx-auto space-y-6 px-4 py-8 ${wide === "full" ? "max-w-[96rem]" : wide ? "max-w-5xl" : "max-w-xl"}`}
      >
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold">{title}</h1>
          {badge}
        </div>
        {children}
      </main>
    </>
  );
}

/** "Demo": on every page of the demo clinic, so nobody takes it for a real one. */
export function DemoBadge() {
  return (
    <span
      data-testid="demo-badge"
      className="rounded-full border border-amber-600 bg-amber-50 px-2.5 py-0.5 text-sm font-medium text-amber-900 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-100"
    >
      Demo: made-up clinic for trying the dashboard
    </span>
  );
}
