import { ConnectButton } from "@/components/layout/ConnectButton";
import type { BlockedState } from "@/lib/dashboard/blocked-state";
import { Panel } from "./Panel";

/** Why a patient page cannot show data, and what to do about it. */
export function BlockedNotice({
  state,
  returnTo = "/dashboard",
}: {
  state: BlockedState;
  returnTo?: string;
}) {
  if (state === "reconnect")
    return (
      <Panel title="Reconnect your CGM account">
        <p>
          The glucose data service no longer accepts this dashboard&apos;s access, for example because it was
          withdrawn there. Connect again to see your data.
        </p>
        <ConnectButton label="Reconnect" returnTo={returnTo} />
      </Panel>
    );
  if (state === "clinician")
    return (
      <Panel title="This is a clinician account">
        <p data-testid="clinician-notice">
          You are signed in as a clinician. These pages show a patient&apos;s own CGM data, and a clinician
          account has none. Your clinic is where you work with your patients.
        </p>
        <a
          href="/clinic"
          className="inline-block rounded-lg bg-blue-700 px-5 py-2.5 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          Go to your clinic
        </a>
      </Panel>
    );
  if (state === "busy")
    return (
      <Panel title="Too many reads in a minute">
        <p data-testid="busy-notice">
          Your pages asked the glucose service for more data in the last minute than one person may. Your data
          is safe; wait a minute, then try again.
        </p>
        <a
          href={returnTo}
          className="inline-block rounded-lg border border-slate-300 px-4 py-2 font-medium dark:border-slate-700"
        >
          Try again
        </a>
      </Panel>
    );
  // The page derived a window no request may read (say, the period before a chosen one starts
  // before 2000): trying again asks the same, so the way out is the page without its query.
  if (state === "refused")
    return (
      <Panel title="This period cannot be shown">
        <p data-testid="refused-notice">
          This page would have to read glucose data from before 1 January 2000, after 31 December 2099, or
          more days at once than one request may read, and the dashboard never asks the glucose service for
          those. Choose a later or shorter period.
        </p>
        <a
          href={returnTo.split("?")[0]}
          className="inline-block rounded-lg border border-slate-300 px-4 py-2 font-medium dark:border-slate-700"
        >
          Show the latest data
        </a>
      </Panel>
    );
  if (state === "not_connected")
    return (
      <Panel title="Connect your CGM account">
        <p>This dashboard has no access to a CGM account. Connect one to see your glucose.</p>
        <ConnectButton label="Connect" returnTo={returnTo} />
      </Panel>
    );
  return (
    <Panel title="The glucose service is not answering">
      <p>Your data is safe; the service could not be reached just now.</p>
      <a
        href={returnTo}
        className="inline-block rounded-lg border border-slate-300 px-4 py-2 font-medium dark:border-slate-700"
      >
        Try again
      </a>
    </Panel>
  );
}
