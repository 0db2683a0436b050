import { type ChatListItem, DEFAULT_LOCALE } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { isDatabaseUnreachable } from '../../platform/errors';
import type { DomainEventMap, DomainEvents } from '../../platform/events';
import { jobLog } from '../../platform/job-log';
import { isTransientMailFailure, type Mail, type Mailer, mailFailure } from '../../platform/mail';
import { PeriodicTask } from '../../platform/periodic';
import type { Presence } from '../../platform/presence';
import type { RoomPresence } from '../../platform/room-presence';
import { mailLocale, type Texts, textsIn } from '../../platform/translations';
import type { UsersService } from '../accounts/users.service';
import type { ChatsService } from '../chats/chats.service';
import type { MessagesService } from '../messages/messages.service';
import * as repo from './notifications.repo';

interface Deps {
  config: Config;
  db: Db;
  events: DomainEvents;
  presence: Presence;
  /** Who is in each chat's room: online, so never mailed (read first, for every message). */
  rooms: RoomPresence;
  chats: ChatsService;
  messages: MessagesService;
  users: UsersService;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

/** Digests sent per poll at most; the rest wait for the next poll. */
const BATCH = 50;
/** The longest wait between tries while the mail server stays away. */
const MAX_RETRY_MS = 30 * 60_000;

/**
 * The missed-message mail: a person with Email Notifications on who is offline when a message arrives gets
 * one mail after the configured delay, listing the chats still unread; later messages in that window add no
 * mail, and reading everything first cancels it. Pending digests live in the database and are polled, so a
 * restart loses none and, with several processes, exactly one sends each.
 */
export class EmailDigestService {
  private readonly poll: PeriodicTask;
  private readonly pollMs: number;
  private stopped = false;
  /** Sends that failed in a row because the mail server was away; each doubles the wait before the next try. */
  private failures = 0;
  /** While the mail server is away, polls before this time (ms) send nothing: the digests wait in the table. */
  private pausedUntil = 0;

  constructor(private readonly deps: Deps) {
    // A failure's line carries a job id, and the id of the request behind the event where it has one. While the
    // database is away the outage is told once (DatabaseOutage), not once per event.
    const guard =
      <T>(what: string, fn: (p: T) => Promise<void>) =>
      (p: T) =>
        void fn(p).catch((err) => {
          if (isDatabaseUnreachable(err)) return;
          jobLog(this.deps.log, 'missed-message mail', (p as { requestId?: string }).requestId).error(
            { err },
            what,
          );
        });
    deps.events.on(
      'message.published',
      guard('scheduling missed-message mail failed', (e) => this.schedule(e)),
    );
    deps.events.on(
      'unread.changed',
      guard('cancelling missed-message mail failed', (e) => this.cancelIfRead(e)),
    );
    // A fraction of the delay, within 50 ms .. 5 s: a due mail leaves at most a few seconds late.
    this.pollMs = Math.min(5000, Math.max(50, Math.floor(this.deps.config.emailNotifyDelayMs / 4)));
    this.poll = new PeriodicTask(
      (log) => this.sendDue(log),
      this.pollMs,
      this.deps.log,
      'missed-message mail poll',
    ).start();
  }

  /** Stops polling and waits for a poll under way (call before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.poll.stop();
  }

  private async schedule({
    chatId,
    message,
    memberIds,
    mutedIds,
    blockedIds,
    resend,
  }: DomainEventMap['message.published']) {
    // A resend was scheduled when it was first stored.
    if (resend || message.kind !== 'user') return;
    // Presence first: in a live conversation everyone is in the room (so online), and neither the rest of
    // presence nor the database is asked at all.
    const absent = await this.deps.rooms.absentAmong(chatId, memberIds);
    if (absent.length === 0) return;
    // A muted chat mails nothing, unless the message mentions the person; nor does a message from
    // someone a block stands between with them.
    const muted = new Set(mutedIds);
    const blocked = new Set(blockedIds);
    const others = absent.filter(
      (id) => id !== message.sender && !blocked.has(id) && (!muted.has(id) || message.mentions.includes(id)),
    );
    if (others.length === 0) return;
    const online = await this.deps.presence.onlineAmong(others, { mirrored: true });
    const offlineOthers = others.filter((id) => !online.has(id));
    if (offlineOthers.length === 0) return;
    const offline = await this.deps.users.withEmailNotifications(offlineOthers);
    if (offline.length === 0) return;
    const dueAt = new Date(Date.now() + this.deps.config.emailNotifyDelayMs).toISOString();
    await repo.scheduleDigests(this.deps.db, offline, dueAt);
  }

  /** Someone read (or cleared) messages: a pending digest with nothing left unread is dropped. */
  private async cancelIfRead({ userIds }: DomainEventMap['unread.changed']) {
    for (const pending of await repo.pendingDigests(this.deps.db, userIds)) {
      if ((await this.deps.messages.totalUnread(pending.user_id)) > 0) continue;
      if (!(await repo.takeDigest(this.deps.db, pending))) continue;
      // A message that landed between the count and the delete found the row still there and planned
      // nothing; plan for it now.
      if ((await this.deps.messages.totalUnread(pending.user_id)) > 0) {
        const dueAt = new Date(Date.now() + this.deps.config.emailNotifyDelayMs).toISOString();
        await repo.scheduleDigests(this.deps.db, [pending.user_id], dueAt);
      }
    }
  }

  /** Sends every digest that is due and that this process manages to take. */
  runDue(): Promise<void> {
    return this.stopped ? Promise.resolve() : this.poll.runOnce();
  }

  /**
   * A digest is taken (deleted) before its mail goes, so no two processes send it. If the mail server cannot
   * be reached the digest is put back, due after a wait that doubles with each failure in a row, and this
   * process sends nothing until then: the rest stay queued, none is dropped, and none goes twice.
   */
  private async sendDue(log: FastifyBaseLogger): Promise<void> {
    if (Date.now() < this.pausedUntil) return;
    const due = await repo.dueDigests(this.deps.db, new Date().toISOString(), BATCH);
    for (const digest of due) {
      if (this.stopped) return;
      if (!(await repo.takeDigest(this.deps.db, digest))) continue;
      try {
        await this.send(digest.user_id, log);
        this.failures = 0;
      } catch (err) {
        if (!isTransientMailFailure(err)) {
          // The server refused this mail itself (5xx): trying it again would be refused again.
          log.error({ mailFailure: mailFailure(err), userId: digest.user_id }, 'missed-message mail refused');
          continue;
        }
        this.failures += 1;
        const waitMs = this.retryDelayMs();
        this.pausedUntil = Date.now() + waitMs;
        const dueAt = new Date(this.pausedUntil).toISOString();
        await repo.scheduleDigests(this.deps.db, [digest.user_id], dueAt);
        log.warn(
          { mailFailure: mailFailure(err), failures: this.failures, retryInMs: waitMs },
          'missed-message mail could not be sent; kept queued for a later try',
        );
        return;
      }
    }
  }

  /** The poll interval at first (at least a second), doubling per failure in a row, up to MAX_RETRY_MS. */
  private retryDelayMs(): number {
    const first = Math.max(1000, this.pollMs);
    return Math.min(MAX_RETRY_MS, first * 2 ** Math.min(20, this.failures - 1));
  }

  private async send(userId: number, log: FastifyBaseLogger): Promise<void> {
    const user = await this.deps.users.mailRecipient(userId);
    if (!user?.email_notification) return;
    const [chats, mentioned, replies] = await Promise.all([
      this.deps.chats.listChats(userId),
      this.deps.messages.unreadMentionsIn(userId),
      this.deps.messages.unreadRepliesPerChat(userId),
    ]);
    // Muted chats are left out, unless an unread message there mentions the person; replies in threads the
    // person follows count wherever they are.
    const unread = chats.filter(
      (c) => (c.unread_count > 0 && (!c.muted || mentioned.has(c.id))) || (replies.get(c.id) ?? 0) > 0,
    );
    if (unread.length === 0) return;
    await this.deps.mailer.send(
      digestMail(
        user.email,
        user.first_name,
        unread,
        this.baseUrl(),
        mentioned,
        replies,
        textsIn(mailLocale(user)),
      ),
      log,
    );
  }

  private baseUrl(): string {
    return this.deps.config.publicUrl ?? `http://localhost:${this.deps.config.port}`;
  }
}

/**
 * `mentioned`: the chats (row ids) where an unread message mentions the person; `replies`: unread replies of the
 * threads they follow, per chat. Written in the person's language (`t`).
 */
export function digestMail(
  to: string,
  firstName: string,
  unread: ChatListItem[],
  baseUrl: string,
  mentioned: Set<number> = new Set(),
  replies: Map<number, number> = new Map(),
  t: Texts = textsIn(DEFAULT_LOCALE),
): Mail {
  const total = unread.reduce((sum, c) => sum + c.unread_count + (replies.get(c.id) ?? 0), 0);
  const lines = unread.map((c) => {
    const url = `${baseUrl}/${c.is_private ? 'chats' : 'groups'}/${encodeURIComponent(c.chat_id)}`;
    const note = mentioned.has(c.id) ? ` ${t('mail.digest.mentioned')}` : '';
    const inThreads = replies.get(c.id) ?? 0;
    const counts = [
      ...(c.unread_count > 0 ? [t('mail.digest.unread', { count: c.unread_count })] : []),
      ...(inThreads > 0 ? [t('mail.digest.replies', { count: inThreads })] : []),
    ];
    return `- ${c.display_name}: ${counts.join(', ')}${note}\n  ${url}`;
  });
  const mentions = unread.some((c) => mentioned.has(c.id));
  return {
    to,
    subject: t(mentions ? 'mail.digest.subjectMentioned' : 'mail.digest.subject', { count: total }),
    text: [
      firstName ? t('mail.digest.greeting', { name: firstName }) : t('mail.digest.greetingNoName'),
      '',
      t('mail.digest.waiting'),
      '',
      ...lines,
      '',
      t('mail.digest.footer', { url: `${baseUrl}/settings` }),
    ].join('\n'),
  };
}
