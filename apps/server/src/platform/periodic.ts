import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnreachable } from './errors';
import { jobLog } from './job-log';

/**
 * A background chore run every `intervalMs` (never two runs at once) until stopped; a failed run is logged and
 * the next one tries again. A run that failed because the database cannot be reached is not logged as an
 * error (the database layer tells its outage once, and the next run after it tries again). The timer does not
 * keep the process alive.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    /** Given a log whose lines carry this run's id (`job`, `job_id`), as a request's carry its request id. */
    private readonly task: (log: FastifyBaseLogger) => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
    private readonly what: string,
  ) {}

  start(): this {
    if (this.timer) return this;
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
    return this;
  }

  /** One run now; a run still under way is not doubled. */
  runOnce(): Promise<void> {
    if (this.running) return this.running;
    const log = jobLog(this.log, this.what);
    this.running = this.task(log)
      .then(() => undefined)
      .catch((err) => {
        if (isDatabaseUnreachable(err)) log.debug(`${this.what} skipped: the database is unavailable`);
        else log.error({ err }, `${this.what} failed`);
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Stops the timer and waits for a run under way (call before what it uses, the database say, closes). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
