"use client";

import { useState } from "react";
import { buttonClass, Notice } from "./SandboxFrame";

interface App {
  client_id: string;
  name: string;
  redirectUris: string[];
}

type Shown =
  | { kind: "created"; app: App & { client_secret: string } }
  | { kind: "rotated"; clientId: string; secret: string };

/**
 * Calls the sandbox's JSON app-management API; secrets live only in this component's state. A new
 * secret needs the current one; the dashboard's own app (`ownClientId`) keeps its configured one.
 */
export function SandboxAppManager({
  apps: initialApps,
  ownClientId,
}: {
  apps: App[];
  ownClientId: string | null;
}) {
  const [apps, setApps] = useState(initialApps);
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function create(form: FormData) {
    setError(null);
    const redirectUris = String(form.get("redirectUris") ?? "")
      .split(/\s+/)
      .filter(Boolean);
    const res = await fetch("/sandbox/developer/apps", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: form.get("name"), redirectUris }),
    });
    const body = await res.json();
    if (!res.ok) return setError(body.message ?? "The app could not be created.");
    setApps((a) => [...a, { client_id: body.client_id, name: body.name, redirectUris: body.redirectUris }]);
    setShown({ kind: "created", app: body });
  }

  async function rotate(clientId: string, form: FormData) {
    setError(null);
    const res = await fetch(`/sandbox/developer/apps/${encodeURIComponent(clientId)}/secret`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ client_secret: form.get("currentSecret") }),
      // A refusal carries a Basic challenge; without credentials the browser shows no login
      // dialog for it (Fetch standard) and the page shows the message instead.
      credentials: "omit",
    });
    const body = await res.json();
    if (!res.ok) return setError(body.message ?? "The secret could not be regenerated.");
    setShown({ kind: "rotated", clientId, secret: body.client_secret });
  }

  return (
    <div className="space-y-6">
      {error ? <Notice tone="error">{error}</Notice> : null}
      {shown ? (
        <Notice tone="info">
          {shown.kind === "created" ? (
            <>
              <p>
                App <strong>{shown.app.name}</strong> created. Copy the secret now; it is not shown again.
              </p>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 break-all font-mono text-sm">
                <dt>client_id</dt>
                <dd>{shown.app.client_id}</dd>
                <dt>client_secret</dt>
                <dd>{shown.app.client_secret}</dd>
              </dl>
            </>
          ) : (
            <p className="break-all">
              New secret for <code>{shown.clientId}</code>: <code>{shown.secret}</code>. The old secret no
              longer works.
            </p>
          )}
        </Notice>
      ) : null}
      <form
        action={create}
        className="space-y-3 rounded-md border border-emerald-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-800"
      >
        <h2 className="text-lg font-semibold">New app</h2>
        <div>
          <label htmlFor="app-name" className="block font-medium">
            Name
          </label>
          <input
            id="app-name"
            name="name"
            required
            className="mt-1 w-full rounded-md border border-slate-400 px-3 py-2 dark:bg-slate-900"
          />
        </div>
        <div>
          <label htmlFor="app-redirects" className="block font-medium">
            Redirect URIs (one per line)
          </label>
          <textarea
            id="app-redirects"
            name="redirectUris"
            required
            rows={2}
            className="mt-1 w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-sm dark:bg-slate-900"
          />
        </div>
        <button type="submit" className={`${buttonClass} bg-emerald-700 text-white hover:bg-emerald-800`}>
          Create app
        </button>
      </form>
      <section aria-labelledby="apps-heading">
        <h2 id="apps-heading" className="text-lg font-semibold">
          Registered apps
        </h2>
        {apps.length === 0 ? <p className="mt-2">No apps yet.</p> : null}
        <ul className="mt-2 space-y-3">
          {apps.map((app) => (
            <li
              key={app.client_id}
              className="rounded-md border border-emerald-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-800"
            >
              <div className="font-medium">{app.name}</div>
              <div className="break-all font-mono text-sm">{app.client_id}</div>
              <ul className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                {app.redirectUris.map((u) => (
                  <li key={u} className="break-all">
                    {u}
                  </li>
                ))}
              </ul>
              {app.client_id === ownClientId ? (
                <p className="mt-2 text-sm">
                  The dashboard&apos;s own app: its secret is <code>CGM_CLIENT_SECRET</code> (or the one
                  generated in <code>DATA_DIR/secrets.json</code>) and is registered again at each start.
                </p>
              ) : (
                <form
                  action={(form) => rotate(app.client_id, form)}
                  className="mt-2 flex flex-wrap items-end gap-2"
                >
                  <div>
                    <label htmlFor={`secret-${app.client_id}`} className="block text-sm font-medium">
                      Current secret<span className="sr-only"> of {app.name}</span>
                    </label>
                    <input
                      id={`secret-${app.client_id}`}
                      name="currentSecret"
                      type="password"
                      required
                      autoComplete="off"
                      className="mt-1 rounded-md border border-slate-400 px-3 py-2 font-mono text-sm dark:bg-slate-900"
                    />
                  </div>
                  <button
                    type="submit"
                    aria-label={`Generate a new secret for ${app.name}`}
                    className={`${buttonClass} border border-slate-500`}
                  >
                    New secret
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
