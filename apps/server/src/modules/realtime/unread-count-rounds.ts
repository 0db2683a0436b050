import type { NotificationFrame } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnreachable } from '../../platform/errors';
import { jobLog } from '../../platform/job-log';
import type { MessagesService } from '../messages/messages.service';
import type { FramePublisher } from './frame-publisher';

/** How long after unread counts were announced further changes are gathered into one round. */
const COUNTS_WINDOW_MS = 250;

export interface UnreadCountRoundsDeps {
  frames: Pick<FramePublisher, 'toUser'>;
  messages: Pick<MessagesService, 'totalsUnread'>;
  log: FastifyBaseLogger;
}

/**
 * Fresh notification_count frames for people whose unread totals may have changed. Counted together, with one
 * query, in rounds: the first after a quiet spell on the next turn, later ones gathered until a window after the
 * last round, so a busy group costs a round per window instead of a count per away member per message. Every
 * round reads the counts as they are then.
 */
export class UnreadCountRounds {
  /** People whose notification_count is due. */
  private readonly due = new Set<number>();
  /** The round that will announce them: its prompt start, then the end of the window after it. */
  private round: { soon: NodeJS.Immediate | null; windowEnd: NodeJS.Timeout | null } | null = null;
  private closed = false;

  constructor(private readonly deps: UnreadCountRoundsDeps) {}

  changed(userIds: number[]): void {
    if (this.closed) return;
    for (const id of userIds) this.due.add(id);
    if (this.round === null && this.due.size > 0)
      this.round = { soon: setImmediate(() => void this.announce()), windowEnd: null };
  }

  /** Drops the round due; later changes are ignored (the app is closing). */
  close(): void {
    this.closed = true;
    if (this.round?.soon) clearImmediate(this.round.soon);
    if (this.round?.windowEnd) clearTimeout(this.round.windowEnd);
  }

  private async announce(): Promise<void> {
    const round = this.round;
    if (this.closed || !round) return;
    round.soon = null;
    const userIds = [...this.due];
    this.due.clear();
    await this.send(userIds);
    if (this.closed) return;
    // Changes from the start of this round on are announced by the next, once the window has passed.
    round.windowEnd = setTimeout(() => {
      round.windowEnd = null;
      if (this.closed) return;
      if (this.due.size === 0) this.round = null;
      else void this.announce();
    }, COUNTS_WINDOW_MS);
  }

  /** Each person's total, with one query; on a failure they are due again, for the next round. */
  private async send(userIds: number[]): Promise<void> {
    try {
      const totals = await this.deps.messages.totalsUnread(userIds);
      await Promise.all(
        userIds.map((id) => {
          const frame: NotificationFrame = { type: 'notification_count', count: totals.get(id) ?? 0 };
          return this.deps.frames.toUser(id, JSON.stringify(frame));
        }),
      );
    } catch (err) {
      // While the database is away the outage is told once (DatabaseOutage), not once per round.
      if (!isDatabaseUnreachable(err))
        jobLog(this.deps.log, 'unread counts round').error({ err }, 'unread count announcement failed');
      for (const id of userIds) this.due.add(id);
    }
  }
}
