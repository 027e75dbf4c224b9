/**
 * Screenshots of pages at desktop (1280 px) and phone (390 px) widths, with Debian's Chromium:
 * `node --import tsx scripts/screenshots.ts [outDir]` (needs `npm run build`).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { startAppServer } from "../test/support/app-server";
import { CHROMIUM_LAUNCH } from "../test/support/chromium";
import { REDIRECT_URI, registerApp, revokeAppAs } from "../test/support/sandbox-client";

async function main() {
  const out = path.resolve(process.argv[2] ?? "/tmp/screenshots");
  mkdirSync(out, { recursive: true });
  const server = await startAppServer();
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const app = await registerApp(server.url, "Screenshot app");
    const login = `/sandbox/v3/oauth2/login?${new URLSearchParams({
      client_id: app.client_id,
      redirect_uri: REDIRECT_URI,
      response_type: "code",
      scope: "offline_access",
    })}`;
    for (const [label, width, height] of [
      ["desktop", 1280, 900],
      ["phone", 390, 844],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height }, baseURL: server.url });
      const page = await context.newPage();
      const shoot = async (name: string) =>
        page.screenshot({ path: `${out}/${name}-${label}.png`, fullPage: true });
      await page.goto("/sandbox");
      await shoot("sandbox-home");
      await page.goto(login);
      await shoot("sandbox-login");
      await page.getByRole("button", { name: "Sign in as SandboxUser2" }).click();
      await page.getByRole("heading", { name: "Share your glucose data?" }).waitFor();
      await shoot("sandbox-consent");
      await page.goto("/sandbox/permissions");
      await shoot("sandbox-permissions");
      await page.goto("/sandbox/developer");
      await shoot("sandbox-developer");
      await page.goto("/sandbox/v3/oauth2/login?client_id=nope");
      await shoot("sandbox-login-error");
      // The dashboard: landing, sign-in through the sandbox, the latest reading, reconnect, errors.
      const csp: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") csp.push(m.text());
      });
      await context.clearCookies();
      await page.goto("/");
      await shoot("home");
      await page.getByRole("button", { name: "Sign in with your CGM account" }).click();
      await page.getByRole("button", { name: "Sign in as SandboxUser1" }).click();
      await page.getByRole("button", { name: "Allow" }).click();
      await page.getByTestId("latest-glucose").waitFor();
      await shoot("dashboard");
      await page.goto("/auth/error?reason=access_denied");
      await shoot("auth-error-denied");
      await revokeAppAs(server.url, "glucose-dashboard", "SandboxUser1");
      await page.goto("/dashboard");
      await page.getByRole("heading", { name: "Reconnect your CGM account" }).waitFor();
      await shoot("dashboard-reconnect");
      if (csp.length) console.log(`console errors (${label}):\n${csp.join("\n")}`);
      await context.close();
    }
    console.log(`screenshots in ${out}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
