import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LatestReading } from "@/components/glucose/LatestReading";
import { AppHeader } from "@/components/layout/AppHeader";
import { ConnectButton } from "@/components/layout/ConnectButton";
import { currentUserId } from "@/lib/auth";
import { latestReading } from "@/lib/dashboard/latest";
import { connectionOfOwner, ReconnectRequired, TokenUnavailable } from "@/lib/service-client/tokens";
import { ServiceError } from "@/lib/service-client/transport";

export const metadata: Metadata = { title: "Dashboard" };

type View =
  | { kind: "not_connected" }
  | { kind: "reconnect" }
  | { kind: "unavailable" }
  | { kind: "no_data" }
  | { kind: "reading"; reading: NonNullable<Awaited<ReturnType<typeof latestReading>>> };

async function load(userId: string): Promise<View> {
  const connection = await connectionOfOwner(userId);
  if (!connection) return { kind: "not_connected" };
  if (connection.status === "needs_reconnect") return { kind: "reconnect" };
  try {
    const reading = await latestReading(connection.id);
    return reading ? { kind: "reading", reading } : { kind: "no_data" };
  } catch (e) {
    if (e instanceof ReconnectRequired) return { kind: "reconnect" };
    if (e instanceof ServiceError || e instanceof TokenUnavailable) return { kind: "unavailable" };
    throw e;
  }
}

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h2 className="text-xl font-semibold">{title}</h2>
      <div className="mt-3 space-y-4">{children}</div>
    </section>
  );
}

export default async function DashboardPage() {
  const userId = await currentUserId();
  if (!userId) redirect("/");
  const view = await load(userId);
  // A server render: "now" is the moment the page was made, which is what "read … ago" refers to.
  const nowMs = Date.now();
  return (
    <>
      <AppHeader signedIn />
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-8">
        <h1 className="text-2xl font-semibold">Your glucose</h1>
        {view.kind === "reading" && <LatestReading reading={view.reading} nowMs={nowMs} />}
        {view.kind === "no_data" && (
          <Panel title="No readings yet">
            <p>Your CGM account is connected, but the service has no glucose readings for it yet.</p>
          </Panel>
        )}
        {view.kind === "unavailable" && (
          <Panel title="The glucose service is not answering">
            <p>Your data is safe; the service could not be reached just now. Reload the page in a minute.</p>
          </Panel>
        )}
        {view.kind === "reconnect" && (
          <Panel title="Reconnect your CGM account">
            <p>
              The glucose data service no longer accepts this dashboard&apos;s access, for example because it
              was withdrawn there. Connect again to see your data.
            </p>
            <ConnectButton label="Reconnect" />
          </Panel>
        )}
        {view.kind === "not_connected" && (
          <Panel title="Connect your CGM account">
            <p>This dashboard has no access to a CGM account. Connect one to see your glucose.</p>
            <ConnectButton label="Connect" />
          </Panel>
        )}
        {view.kind !== "not_connected" && (
          <form method="post" action="/api/connection/disconnect" className="pt-4">
            <button type="submit" className="text-sm text-slate-700 underline dark:text-slate-300">
              Disconnect your CGM account
            </button>
          </form>
        )}
      </main>
    </>
  );
}
