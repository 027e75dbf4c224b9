"use client";

import { useEffect, useState } from "react";

type CopyState = "idle" | "copied" | "select";

/**
 * Copies the text field `targetId` holds. The clipboard API needs a secure context (HTTPS or
 * localhost) and the page's focus; where it is missing or refused, the older copy command on the
 * selected field is tried, and failing that the link is left selected with words saying how to
 * copy it by hand. The state is announced (role=status) and falls back to idle after a few seconds.
 */
export function CopyLinkButton({ targetId, label = "Copy link" }: { targetId: string; label?: string }) {
  const [state, setState] = useState<CopyState>("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 6000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    const field = document.getElementById(targetId) as HTMLInputElement | null;
    if (!field) return;
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard API");
      await navigator.clipboard.writeText(field.value);
      setState("copied");
      return;
    } catch {
      // The fallback below.
    }
    field.focus();
    field.select();
    let copied = false;
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
    setState(copied ? "copied" : "select");
  }

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        type="button"
        onClick={copy}
        data-testid={`${targetId}-copy`}
        className="rounded-lg border border-slate-400 bg-white px-4 py-2 font-medium hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800"
      >
        {state === "copied" ? "Copied" : label}
      </button>
      <span role="status" className="text-sm" data-testid={`${targetId}-copy-status`}>
        {state === "copied"
          ? "Copied: the link is on your clipboard."
          : state === "select"
            ? "Your browser did not allow copying: the link is selected, press Ctrl+C (⌘C on a Mac)."
            : ""}
      </span>
    </span>
  );
}
