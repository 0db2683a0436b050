import type { IncomingMessage } from 'node:http';

/** How much of a refused body the server reads and drops before answering, and for how long at most. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 30_000;

/**
 * Reads the rest of a request body and drops it, so the answer to a refused upload (a 413) reaches the client:
 * closing a connection that still has an upload coming makes the client's next write fail (EPIPE, or a reset in
 * a browser) before it reads the answer. Past the byte or time bound the connection is closed after all.
 */
export function drainRequest(raw: IncomingMessage): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', done);
      raw.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) {
        raw.destroy();
        done();
      }
    };
    const timer = setTimeout(() => {
      raw.destroy();
      done();
    }, DRAIN_MAX_MS);
    timer.unref();
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('close', done);
    raw.resume();
  });
}
