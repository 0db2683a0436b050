/** What the mirror reads from Redis. */
export interface PresenceSource {
  /** A presence hash: its fields (`<process id>|<field>`) and their counts. */
  read(key: string): Promise<Record<string, string>>;
  /** Of these process ids, those whose heartbeat key still lives. */
  alive(instanceIds: string[]): Promise<Set<string>>;
}

export const instanceOf = (hashField: string) => hashField.split('|')[0] ?? '';
export const fieldOf = (hashField: string) => hashField.split('|')[1] ?? '';

interface Entry {
  /** The hash as last read (null before the first read, or after a read that failed). */
  data: Record<string, string> | null;
  /** The read under way, and the reads it will be followed by: settled once `data` is current. */
  loading: Promise<void> | null;
  /** A change was announced while the read under way was already sent: one more read follows it. */
  stale: boolean;
  readAt: number;
  /** The live fields of `data`, worked out for the heartbeats as they were at `liveness` generation `viewOf`. */
  view: string[] | null;
  viewOf: number;
}

/** How often the processes behind the mirrored hashes are checked for a heartbeat. */
const SYNC_MS = 1000;
/** A hash nobody here read for this long is no longer kept. */
const IDLE_MS = 60_000;

/**
 * This process's copy of the presence hashes it reads on the send path (who is in a room, who is online), so a
 * message costs no Redis read. Every change to a hash is announced on a Redis channel by the script that makes
 * it (`changed`), and the mirror reads that hash again at once; a read that comes meanwhile waits for it, so
 * what a process reads is never older than the last change it was told of. A process that crashes announces
 * nothing: the heartbeats behind the mirrored hashes are checked every second (and learnt from every direct
 * read), so its people drop out at most a second after Redis forgets its heartbeat. While the subscription is
 * down (before it is up, or after the connection dropped) changes may be missed, so nothing is kept and every
 * read goes to Redis.
 */
export class PresenceMirror {
  private readonly entries = new Map<string, Entry>();
  /** Whether each process seen in a mirrored hash has a live heartbeat. */
  private readonly liveness = new Map<string, boolean>();
  /** Counts the changes to `liveness`, so a hash's live fields are worked out again only after one. */
  private generation = 0;
  private listening = false;
  private readonly timer: NodeJS.Timeout;
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly source: PresenceSource,
    private readonly options: { syncMs?: number; idleMs?: number } = {},
  ) {
    this.timer = setInterval(() => void this.sync().catch(() => {}), options.syncMs ?? SYNC_MS);
    this.timer.unref();
  }

  /** Changes are heard from now on: reads may be kept. */
  listen(): void {
    this.listening = true;
  }

  /** Changes may go unheard from now on: everything kept is dropped, and reads go to Redis. */
  deaf(): void {
    this.listening = false;
    this.entries.clear();
  }

  /**
   * Some process changed hash `key`: read it again, if it is kept here. Changes announced during a read are
   * covered by one more read after it, however many they are (a room filling up costs a few reads, not one each).
   */
  changed(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    if (e.loading) e.stale = true;
    else void this.load(key, e).catch(() => {});
  }

  /** Heartbeats learnt by a direct read: these processes, of `ids`, are alive and the others are not. */
  learn(ids: string[], alive: Set<string>): void {
    for (const id of ids) {
      const now = alive.has(id);
      if (this.liveness.get(id) === now) continue;
      this.liveness.set(id, now);
      this.generation += 1;
    }
  }

  /** The fields (without the process prefix) that some live process counts under `key`; not to be changed. */
  async fields(key: string): Promise<readonly string[]> {
    if (!this.listening) return this.liveOf(await this.readFresh(key));
    let e = this.entries.get(key);
    if (!e) {
      e = { data: null, loading: null, stale: false, readAt: 0, view: null, viewOf: 0 };
      this.entries.set(key, e);
      void this.load(key, e).catch(() => {});
    }
    e.readAt = Date.now();
    if (e.loading) await e.loading;
    // The last read failed: this one tries again (or waits for a read another caller started meanwhile).
    if (!e.data) await (e.loading ?? this.load(key, e));
    if (e.view === null || e.viewOf !== this.generation) {
      e.view = this.liveOf(e.data ?? {});
      e.viewOf = this.generation;
    }
    return e.view;
  }

  /** The periodic sync: checks the heartbeat of every process in a kept hash, and forgets hashes not read lately. */
  sync(): Promise<void> {
    this.syncing ??= this.checkHeartbeats().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  close(): void {
    clearInterval(this.timer);
    this.deaf();
  }

  private async checkHeartbeats(): Promise<void> {
    const now = Date.now();
    const ids = new Set<string>();
    for (const [key, e] of this.entries) {
      if (now - e.readAt > (this.options.idleMs ?? IDLE_MS) && !e.loading) this.entries.delete(key);
      else for (const field of Object.keys(e.data ?? {})) ids.add(instanceOf(field));
    }
    if (ids.size === 0) return;
    const list = [...ids];
    this.learn(list, await this.source.alive(list));
  }

  /** Reads `key` into `e`, and again as long as changes were announced during the read before. */
  private load(key: string, e: Entry): Promise<void> {
    const read = async (): Promise<void> => {
      e.stale = false;
      try {
        e.data = await this.readFresh(key);
      } catch (err) {
        // What is kept may miss the change this read was for: read again next time.
        e.data = null;
        throw err;
      } finally {
        e.view = null;
      }
      if (e.stale) return read();
    };
    const loading = read();
    e.loading = loading;
    const done = () => {
      if (e.loading === loading) e.loading = null;
    };
    loading.then(done, done);
    return loading;
  }

  /** A hash from Redis, with the heartbeats of processes not seen before. */
  private async readFresh(key: string): Promise<Record<string, string>> {
    const data = await this.source.read(key);
    const unknown = [...new Set(Object.keys(data).map(instanceOf))].filter((id) => !this.liveness.has(id));
    if (unknown.length > 0) this.learn(unknown, await this.source.alive(unknown));
    return data;
  }

  private liveOf(data: Record<string, string>): string[] {
    const fields = new Set<string>();
    for (const [k, v] of Object.entries(data))
      if (Number(v) > 0 && this.liveness.get(instanceOf(k)) === true) fields.add(fieldOf(k));
    return [...fields];
  }
}
