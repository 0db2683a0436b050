/**
 * Whether this process is shutting down (it then answers /readyz with 503 and takes no new sockets), and the
 * work that the database and Redis must outlive: what the sockets started (a frame being handled, a socket's
 * close with its presence and last seen, a socket still being opened) and the realtime fan-outs of domain
 * events. A stop waits for that work before closing them.
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
