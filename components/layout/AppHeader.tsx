import Link from "next/link";
import { signOutAction } from "@/lib/auth/actions";

export function AppHeader({ signedIn }: { signedIn: boolean }) {
  return (
    <header className="border-b border-slate-200 bg-white print:hidden dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
        <Link href="/" className="font-semibold">
          Glucose Dashboard
        </Link>
        {signedIn && (
          <form action={signOutAction}>
            <button
              type="submit"
              className="rounded-md px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800"
            >
              Sign out
            </button>
          </form>
        )}
      </div>
    </header>
  );
}
