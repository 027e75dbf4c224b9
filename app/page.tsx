import { redirect } from "next/navigation";
import { AppHeader } from "@/components/layout/AppHeader";
import { ConnectButton } from "@/components/layout/ConnectButton";
import { currentUserId } from "@/lib/auth";
import { isClinician } from "@/lib/clinic/domain/clinics";
import { env } from "@/lib/platform/env";

export default async function HomePage() {
  const userId = await currentUserId();
  if (userId) redirect((await isClinician(userId)) ? "/clinic" : "/dashboard");
  const { usesEmbeddedSandbox } = env();
  return (
    <>
      <AppHeader signedIn={false} />
      <main className="mx-auto max-w-3xl px-4 py-12">
        <h1 className="text-3xl font-semibold">Your glucose, clearly</h1>
        <p className="mt-4 text-lg">
          An open-source dashboard for your continuous glucose monitor: the latest value and its trend, the
          trace of the last hours and weeks, time in range and hypoglycemia risk.
        </p>
        <p className="mt-4">
          Sign in with your CGM account: you give your password to the glucose data service only, never to us,
          and you can withdraw this dashboard&apos;s access there at any time.
        </p>
        <div className="mt-8">
          <ConnectButton label="Sign in with your CGM account" />
        </div>
        <p className="mt-8 text-sm">
          <a className="text-blue-700 underline dark:text-blue-300" href="/clinic/sign-in">
            Clinicians: sign in
          </a>
        </p>
        {usesEmbeddedSandbox && (
          <p className="mt-8 text-sm text-slate-600 dark:text-slate-400">
            This installation uses the built-in{" "}
            <a className="text-blue-700 underline dark:text-blue-300" href="/sandbox">
              sandbox of the glucose data service
            </a>
            : sign in as any of its synthetic users, no password needed.
          </p>
        )}
      </main>
    </>
  );
}
