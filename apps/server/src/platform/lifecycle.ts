/**
 * Whether this process is shutting down (it then answers /readyz with 503 and takes no new sockets), and the
 * work its sockets started that the database and Redis must outlive: a frame being handled, a socket's
 * close (presence, last seen), a socket still being opened. A stop waits for that work before closing them.
 */
export class Lifecycle {
  stopping = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  /** Counts `work` in until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const done = () => this.inFlight.delete(work);
    work.then(done, done);
    return work;
  }

  /** Resolves once no tracked work is running, work tracked while waiting included (never rejects). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
