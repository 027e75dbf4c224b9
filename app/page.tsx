export default function HomePage() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-semibold">Glucose Dashboard</h1>
      <p className="mt-4 text-lg">
        An open-source dashboard for continuous glucose monitor data: glucose now, the trace, time in range
        and hypoglycemia risk.
      </p>
      <p className="mt-4">
        The built-in sandbox of the glucose data service runs at{" "}
        <a className="text-blue-700 underline dark:text-blue-300" href="/sandbox">
          /sandbox
        </a>
        .
      </p>
    </main>
  );
}
