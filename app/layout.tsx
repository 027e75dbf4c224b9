import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Glucose Dashboard", template: "%s · Glucose Dashboard" },
  description: "Your continuous glucose monitor's data: glucose now, the trace, time in range.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: the CSP nonce (proxy.ts) differs each time, and a page
  // prerendered at build time would carry scripts without it.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {children}
      </body>
    </html>
  );
}
