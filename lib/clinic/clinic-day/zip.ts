import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

/**
 * A zip written as it is read: one entry at a time, each fetched only when the reader asks for
 * more, so a packet of 200 PDFs never sits in memory whole. PDFs are stored as they are (already
 * compressed); text is deflated.
 */
export interface ZipEntry {
  name: string;
  /** Read when its turn comes; null: left out. */
  data: () => Promise<Uint8Array | null>;
  compress: boolean;
}

export function zipStream(entries: readonly ZipEntry[], mtime = new Date()): ReadableStream<Uint8Array> {
  let next = 0;
  let zip: Zip;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((err, chunk, final) => {
        if (err) return controller.error(err);
        if (chunk.length > 0) controller.enqueue(chunk);
        if (final) controller.close();
      });
    },
    async pull() {
      // Each pull adds whole entries until one has produced bytes or the zip is ended.
      while (next < entries.length) {
        const entry = entries[next++] as ZipEntry;
        const data = await entry.data();
        if (!data) continue;
        const file = entry.compress
          ? new ZipDeflate(entry.name, { level: 6 })
          : new ZipPassThrough(entry.name);
        file.mtime = mtime;
        zip.add(file);
        file.push(data, true);
        return;
      }
      zip.end();
    },
  });
}
