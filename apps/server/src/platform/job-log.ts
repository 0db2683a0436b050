import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The log of one piece of background work (a fan-out, a poll, a mail): its lines carry the job's name and an id
 * of their own (`job`, `job_id`), and the id of the request that caused it (`reqId`, as a request's own lines
 * do) when there is one, so an operator can follow a socket frame to the pushes and mails it set off.
 */
export function jobLog(log: FastifyBaseLogger, job: string, requestId?: string | null): FastifyBaseLogger {
  return log.child({ job, job_id: randomUUID(), ...(requestId ? { reqId: requestId } : {}) });
}
