import type { Metadata } from "next";
import { SandboxAppManager } from "@/components/sandbox/SandboxAppManager";
import { SandboxFrame } from "@/components/sandbox/SandboxFrame";
import { listApps } from "@/lib/sandbox/apps";
import { sandboxPageUser } from "@/lib/sandbox/pages";
import { dashboardClientId } from "@/lib/sandbox/register-dashboard";

export const metadata: Metadata = { title: "Developer apps · Sandbox" };
export const dynamic = "force-dynamic";

export default async function DeveloperPage() {
  await sandboxPageUser();
  const apps = await listApps();
  return (
    <SandboxFrame title="Developer apps">
      <p>
        Register an app to get a <code>client_id</code> and <code>client_secret</code>. The secret is shown
        once; generating a new one needs the current one and stops it at once.
      </p>
      <SandboxAppManager apps={apps} ownClientId={dashboardClientId()} />
    </SandboxFrame>
  );
}
