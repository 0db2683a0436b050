import type { FastifyBaseLogger } from 'fastify';

/**
 * A background chore run every `intervalMs` (never two runs at once) until stopped; a failed run is logged and
 * the next one tries again. The timer does not keep the process alive.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly task: () => Promise<unknown>,
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
    this.running ??= this.task()
      .then(() => undefined)
      .catch((err) => this.log.error({ err }, `${this.what} failed`))
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
