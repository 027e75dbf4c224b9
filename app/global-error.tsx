"use client";

import { ErrorNotice } from "@/components/layout/ErrorNotice";
import "./globals.css";

/**
 * When the root layout itself fails: this replaces it, so it brings its own document, styles and
 * the body's colours (light and dark) that the layout would have given.
 */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <title>Something went wrong · Glucose Dashboard</title>
        <ErrorNotice error={error} retry={retry} />
      </body>
    </html>
  );
}
