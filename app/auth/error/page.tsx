import type { Metadata } from "next";
import { AppHeader } from "@/components/layout/AppHeader";
import { ConnectButton } from "@/components/layout/ConnectButton";
import { currentUserId } from "@/lib/auth";

export const metadata: Metadata = { title: "Sign-in not completed" };

/** What each failed sign-in means for the person, and what they can do. */
const EXPLANATIONS: Record<string, { title: string; text: string }> = {
  access_denied: {
    title: "You chose not to share your data",
    text: "The glucose data service asked whether this dashboard may read your CGM data, and the answer was no. Nothing was shared. If you change your mind, start again and choose Allow.",
  },
  invalid_state: {
    title: "This sign-in link has already been used or belongs to another browser",
    text: "For your safety a sign-in can only be completed once, in the browser that started it. Start again from here.",
  },
  expired: {
    title: "This sign-in took too long or was already completed",
    text: "A sign-in must be completed within 15 minutes, and only once. Start again from here.",
  },
  exchange_failed: {
    title: "The glucose data service did not confirm the sign-in",
    text: "The service refused to complete it, which happens when a sign-in page is left open too long. Start again.",
  },
  service_unavailable: {
    title: "The glucose data service is not answering",
    text: "The sign-in could not be completed because the service did not answer. Try again in a minute.",
  },
  other_account: {
    title: "This browser is signed in to another account",
    text: "You signed in at the glucose data service with a CGM account other than the one this browser is signed in to here (or this browser is signed in as a clinician). Nothing was changed: the data of two accounts are never put together. To open the other account, sign out first, then sign in again with it; to reconnect this account, try again and choose this account at the service.",
  },
  no_identity: {
    title: "The glucose data service did not say which account signed in",
    text: "Without it this dashboard cannot find your account, so nothing was stored. Try again; if it keeps failing, the service may have changed.",
  },
  service_error: {
    title: "The glucose data service reported a problem",
    text: "The service could not complete the sign-in. Try again; if it keeps failing, the service may be down.",
  },
};

const FALLBACK = {
  title: "Sign-in was not completed",
  text: "Something interrupted the sign-in. Start again from here.",
};

export default async function AuthErrorPage({
  searchParams,
}: {
  searchParams: Promise<{ reason?: string }>;
}) {
  const { reason } = await searchParams;
  const { title, text } = (reason && EXPLANATIONS[reason]) || FALLBACK;
  const signedIn = (await currentUserId()) !== null;
  return (
    <>
      <AppHeader signedIn={signedIn} />
      <main className="mx-auto max-w-2xl px-4 py-12">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-4 text-lg">{text}</p>
        <div className="mt-8">
          <ConnectButton label="Try again" />
        </div>
      </main>
    </>
  );
}
