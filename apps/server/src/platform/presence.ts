// Who is online. Sockets feed it (the realtime module); profiles and chat lists read it.
// In-process by default; the scale-out work adds a Redis implementation behind the same interface.
export interface Presence {
  /** Counts one more open connection of the user; true when the user just came online. */
  connect(userId: number): Promise<boolean>;
  /** Counts one fewer; true when the user's last connection closed. */
  disconnect(userId: number): Promise<boolean>;
  isOnline(userId: number): Promise<boolean>;
  /** The user's open connections, on every process. */
  connections(userId: number): Promise<number>;
  /**
   * Those of `userIds` who are online. `mirrored`: from this process's copy where there is one (Redis), for the
   * send path: no round trip, as current as the last change announced, a crashed process's people gone within a
   * second of its heartbeat.
   */
  onlineAmong(userIds: number[], options?: { mirrored?: boolean }): Promise<Set<number>>;
  close(): Promise<void>;
}

export class MemoryPresence implements Presence {
  private readonly open = new Map<number, number>();
  async connect(userId: number) {
    const n = (this.open.get(userId) ?? 0) + 1;
    this.open.set(userId, n);
    return n === 1;
  }
  async disconnect(userId: number) {
    const n = (this.open.get(userId) ?? 0) - 1;
    if (n <= 0) {
      this.open.delete(userId);
      return true;
    }
    this.open.set(userId, n);
    return false;
  }
  async isOnline(userId: number) {
    return this.open.has(userId);
  }
  async connections(userId: number) {
    return this.open.get(userId) ?? 0;
  }
  async onlineAmong(userIds: number[]) {
    return new Set(userIds.filter((id) => this.open.has(id)));
  }
  async close() {}
}
