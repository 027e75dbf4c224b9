/** While the overview loads: the page's shape, so nothing jumps when the data arrives. */
export default function Loading() {
  const block = "animate-pulse rounded-xl bg-slate-200 motion-reduce:animate-none dark:bg-slate-800";
  return (
    <main
      className="mx-auto max-w-6xl space-y-6 px-4 py-6"
      aria-busy="true"
      aria-label="Loading your glucose"
    >
      <div className={`${block} h-8 w-48`} />
      <div className="grid gap-6 lg:grid-cols-2">
        <div className={`${block} h-44`} />
        <div className={`${block} h-44`} />
      </div>
      <div className={`${block} h-96`} />
      <p className="sr-only" role="status">
        Loading your glucose…
      </p>
    </main>
  );
}
