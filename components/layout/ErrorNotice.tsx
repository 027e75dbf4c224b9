"use client";

import { useEffect, useRef } from "react";

/**
 * The digest Next gives an error thrown on the server: the key to its entry in the server's log,
 * and nothing else (the message and stack stay on the server, and even a client error's message may
 * carry data that is not for the screen).
 */
export function supportReference(error: unknown): string | null {
  if (typeof error !== "object" || error === null || !("digest" in error)) return null;
  const { digest } = error as { digest: unknown };
  return typeof digest === "string" && digest.length > 0 ? digest : null;
}

/**
 * What a person sees when a page failed outside the states the pages themselves explain (service
 * down, access withdrawn): a plain account, a way to try again, and a reference for support.
 */
export function ErrorNotice({ error, retry }: { error: unknown; retry: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Focus moves here so a screen reader announces the failure instead of the page that vanished.
    heading.current?.focus();
    console.error(error);
  }, [error]);
  const reference = supportReference(error);
  return (
    <main className="mx-auto max-w-3xl px-4 py-12">
      <section
        aria-labelledby="error-heading"
        className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <h1
          id="error-heading"
          ref={heading}
          tabIndex={-1}
          className="text-2xl font-semibold focus:outline-none"
        >
          Something went wrong
        </h1>
        <p className="mt-3">
          This page could not be shown because of a fault on our side. Trying again often helps; if it keeps
          happening, please come back a little later.
        </p>
        <div className="mt-6 flex flex-wrap items-center gap-3">
          <button
            type="button"
            onClick={() => retry()}
            className="rounded-lg bg-blue-700 px-5 py-2.5 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400"
          >
            Try again
          </button>
          <a
            href="/"
            className="rounded-lg border border-slate-300 px-4 py-2 font-medium hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:border-slate-700 dark:hover:bg-slate-800 dark:focus-visible:outline-blue-400"
          >
            Go to the start page
          </a>
        </div>
        {reference && (
          <p className="mt-6 text-sm text-slate-700 dark:text-slate-300" data-testid="error-reference">
            If you contact support, please quote this reference:{" "}
            <code className="font-mono">{reference}</code>
          </p>
        )}
      </section>
    </main>
  );
}
