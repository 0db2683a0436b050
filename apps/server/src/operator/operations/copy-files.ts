import type { FileStorage, StoredEntry } from '../../platform/storage';

// Copies every stored file (avatars, attachments, thumbnails) from one back end to another — the step between
// a laptop's DATA_DIR/media and a bucket, or back. Keys stay the same, so the database needs no change: point
// STORAGE_URL at the target and every row finds its file. A file already at the target with the same size is
// left alone, so a second run (or one after an interruption) copies only what is missing. The source is never
// changed: remove it yourself once the server runs on the target.

export interface CopyReport {
  /** Files copied by this run, and their bytes. */
  copied: number;
  bytes: number;
  /** Files the target already had (same key and size). */
  present: number;
  /** Keys that could not be copied (the source vanished, the target refused), with why. */
  failed: { key: string; error: string }[];
}

/** Files copied at once: enough to hide an object store's latency, few enough for any machine. */
const PARALLEL = 4;

export async function copyFiles(
  from: FileStorage,
  to: FileStorage,
  onProgress: (done: number, entry: StoredEntry) => void,
): Promise<CopyReport> {
  if (from.description === to.description)
    throw new Error(`Source and target are the same: ${from.description}.`);
  const report: CopyReport = { copied: 0, bytes: 0, present: 0, failed: [] };
  let done = 0;

  const copyOne = async (entry: StoredEntry) => {
    try {
      if ((await to.size(entry.key)) === entry.size) {
        report.present++;
      } else {
        const file = await from.get(entry.key);
        if (!file) throw new Error('gone from the source while copying');
        await to.putStream(entry.key, file.stream, file.size);
        report.copied++;
        report.bytes += file.size;
      }
    } catch (err) {
      report.failed.push({ key: entry.key, error: err instanceof Error ? err.message : String(err) });
    }
    onProgress(++done, entry);
  };

  const running = new Set<Promise<void>>();
  for await (const entry of from.list()) {
    const job = copyOne(entry).finally(() => running.delete(job));
    running.add(job);
    if (running.size >= PARALLEL) await Promise.race(running);
  }
  await Promise.all(running);
  return report;
}
