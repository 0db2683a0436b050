/**
 * Rows read once and kept while a stamp stays the same: the stamp moves whenever what the rows came from may have
 * changed, so a kept read is never stale (what changes it decides its owner: see NewestPages and the channel
 * directory). At most `max` reads are kept, the least recently used let go first. The rows are shared by every
 * caller that follows, frozen so that none can change them for the next.
 */
export class KeptReads<Row extends object> {
  private readonly kept = new Map<string, { stamp: string; rows: readonly Row[] }>();

  constructor(
    private readonly stamp: () => string,
    private readonly max = 256,
  ) {}

  /** The rows under `key`, read by `read` unless kept since the stamp last moved. */
  async get(key: string, read: () => Promise<Row[]>): Promise<Row[]> {
    const stamp = this.stamp();
    const kept = this.kept.get(key);
    if (kept?.stamp === stamp) {
      // Most recently used last: the first is the one to let go.
      this.kept.delete(key);
      this.kept.set(key, kept);
      return [...kept.rows];
    }
    const rows = await read();
    this.kept.delete(key);
    // Kept only if nothing changed while it was read (a write could have landed before the read ran).
    if (this.stamp() === stamp) {
      this.kept.set(key, { stamp, rows: Object.freeze(rows.map((row) => Object.freeze({ ...row }))) });
      if (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value as string);
    }
    return rows;
  }

  /** Lets every kept read go (their owner knows they changed). */
  clear(): void {
    this.kept.clear();
  }
}
