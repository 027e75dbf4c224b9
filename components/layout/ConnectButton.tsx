/**
 * Starts a sign-in (or reconnect) with the service: a plain form POST, so it works without
 * JavaScript and our route can refuse cross-site posts.
 */
export function ConnectButton({ label, returnTo = "/dashboard" }: { label: string; returnTo?: string }) {
  return (
    <form method="post" action="/api/auth/cgm/start">
      <input type="hidden" name="returnTo" value={returnTo} />
      <button
        type="submit"
        className="rounded-lg bg-blue-700 px-5 py-2.5 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        {label}
      </button>
    </form>
  );
}
