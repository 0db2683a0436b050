import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The log of one piece of background work (a fan-out, a poll, a mail): its lines carry the job's name and an id
 * of their own (`job`, `job_id`), and the id of the request that caused it (`reqId`, as a request's own lines
 * do) when there is one, so an operator can follow a socket frame to the pushes and mails it set off.
 *
 * The child logger (and its id) is made on first use: the push fan-out asks for one per message, and most
 * messages log nothing.
 */
export function jobLog(log: FastifyBaseLogger, job: string, requestId?: string | null): FastifyBaseLogger {
  let child: FastifyBaseLogger | undefined;
  const made = () => {
    child ??= log.child({ job, job_id: randomUUID(), ...(requestId ? { reqId: requestId } : {}) });
    return child;
  };
  return new Proxy({} as FastifyBaseLogger, {
    get(_target, key) {
      const c = made();
      const value = Reflect.get(c, key, c);
      return typeof value === 'function' ? value.bind(c) : value;
    },
    set(_target, key, value) {
      return Reflect.set(made(), key, value);
    },
  });
}
