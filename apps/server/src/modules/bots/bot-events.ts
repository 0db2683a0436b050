import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnreachable } from '../../platform/errors';
import type { DomainEventMap, DomainEvents } from '../../platform/events';
import { anyAddress, GuardedFetchError, guardedPost } from '../../platform/guarded-fetch';
import { isPublicAddress } from '../../platform/public-address';
import type { BotsService } from './bots.service';

// Outgoing events: each message in a chat a bot is a member of (a mention is such a message too) is POSTed to
// the bot's events_url, signed, beside the fan-out to people and never before it. A failure is tried again
// three times within a minute; every attempt is kept in the bot's delivery log. While the database is away the
// bots to tell are looked up again on the same schedule, so an outage delays an event rather than losing it.

export interface BotEventsOptions {
  /** Waits before the 2nd, 3rd and 4th attempt: 2 s, 10 s and 30 s, all within a minute. */
  retryDelaysMs: number[];
  /** One attempt's deadline. */
  timeoutMs: number;
  allowPrivateHosts: boolean;
}

/** What is read of a bot's answer: its status is what counts. */
const ANSWER_MAX_BYTES = 16 * 1024;
const USER_AGENT = 'Mozilla/5.0 (compatible; ParleyEvents/1.0)';

interface Deps {
  events: DomainEvents;
  bots: Pick<BotsService, 'eventTargets' | 'signedHeaders' | 'recordDelivery'>;
  log: FastifyBaseLogger;
  options: BotEventsOptions;
}

export class BotEvents {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: Deps) {
    deps.events.on('message.published', (e) => this.onPublished(e));
  }

  private async onPublished(e: DomainEventMap['message.published']): Promise<void> {
    if (e.resend || e.message.kind === 'system' || this.stopped) return;
    const others = e.memberIds.filter((id) => id !== e.message.sender);
    this.lookUp(e, others, 0);
  }

  private lookUp(e: DomainEventMap['message.published'], others: number[], tries: number): void {
    const run = this.deps.bots
      .eventTargets(others)
      .then((targets) => {
        if (targets.length === 0) return;
        const body = JSON.stringify({ type: 'message', chat_id: e.chatId, message: e.message });
        for (const target of targets) this.attempt(target, body, e.chatId, e.message.id, 1);
      })
      .catch((err) => {
        const wait = this.deps.options.retryDelaysMs[tries];
        if (!isDatabaseUnreachable(err) || wait === undefined) {
          this.deps.log.warn({ err }, 'bot event targets unavailable');
          return;
        }
        this.later(wait, () => this.lookUp(e, others, tries + 1));
      })
      .finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private later(wait: number, then: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      then();
    }, wait);
    timer.unref();
    this.timers.add(timer);
  }

  private attempt(
    target: { botId: number; url: string },
    body: string,
    chatId: string,
    messageId: number,
    n: number,
  ) {
    const run = this.deliver(target, body, chatId, messageId, n).finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private async deliver(
    target: { botId: number; url: string },
    body: string,
    chatId: string,
    messageId: number,
    n: number,
  ): Promise<void> {
    const { options } = this.deps;
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      const res = await guardedPost(target.url, body, {
        allowAddress: options.allowPrivateHosts ? anyAddress : isPublicAddress,
        httpToo: options.allowPrivateHosts,
        timeoutMs: options.timeoutMs,
        maxBytes: ANSWER_MAX_BYTES,
        userAgent: USER_AGENT,
        headers: await this.deps.bots.signedHeaders(target.botId, body),
      });
      httpStatus = res.status;
      if (res.status < 200 || res.status >= 300) error = `status ${res.status}`;
    } catch (err) {
      error = err instanceof GuardedFetchError ? err.reason : 'failed';
    }
    const delivered = error === null;
    await this.deps.bots
      .recordDelivery({
        bot_id: target.botId,
        message_id: messageId,
        chat_id: chatId,
        attempt: n,
        status: delivered ? 'delivered' : 'failed',
        http_status: httpStatus,
        error,
        created_at: new Date().toISOString(),
      })
      .catch((err) => {
        if (!isDatabaseUnreachable(err)) this.deps.log.warn({ err }, 'bot delivery not recorded');
      });
    const wait = options.retryDelaysMs[n - 1];
    if (delivered || wait === undefined) return;
    this.later(wait, () => this.attempt(target, body, chatId, messageId, n + 1));
  }

  /** Drops the retries still waiting and waits for the attempts under way (before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}
