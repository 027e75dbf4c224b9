"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Re-reads the server's page every `seconds` while `active` (a clinic day being prepared), so its
 * progress moves without a reload: the page is drawn anew in place (scroll and focus stay), which
 * a meta refresh would not allow (WCAG 2.2.1: a page must not reload itself on a timer). Without
 * JavaScript the page's Refresh link does the same. Renders nothing.
 */
export function RefreshWhile({ active, seconds }: { active: boolean; seconds: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), seconds * 1000);
    return () => clearInterval(timer);
  }, [active, seconds, router]);
  return null;
}
