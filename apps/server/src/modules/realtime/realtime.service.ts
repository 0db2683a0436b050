import {
  CLOSE_AUTH_FAILED,
  CLOSE_NOT_FOUND,
  type NotificationFrame,
  previewText,
  type ServerFrame,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus, BusMessage } from '../../platform/bus';
import type { DomainEvents } from '../../platform/events';
import { jobLog } from '../../platform/job-log';
import type { Lifecycle } from '../../platform/lifecycle';
import type { RoomPresence } from '../../platform/room-presence';
import type { ChatsService } from '../chats/chats.service';
import type { MessagesService } from '../messages/messages.service';
import type { BlocksService } from '../safety/blocks.service';
import { topics } from './hub';

interface Deps {
  bus: Bus;
  events: DomainEvents;
  chats: Pick<ChatsService, 'groupDetail' | 'memberIds'> & Partial<Pick<ChatsService, 'privateChatOf'>>;
  messages: Pick<MessagesService, 'totalsUnread'>;
  rooms: RoomPresence;
  log: FastifyBaseLogger;
  /** Counts each fan-out in, so a stop closes the database and Redis only once they are done. */
  lifecycle?: Pick<Lifecycle, 'track'>;
  /** People a block stands between see nothing of each other's presence, typing or reading (issue 13). */
  blocks?: Pick<BlocksService, 'relatedTo' | 'relationsAmong'>;
  /** How long after an occupancy announcement further changes are gathered into one (250 ms). */
  occupancyWindowMs?: number;
  /** How long after unread counts were announced further changes are gathered into one round (250 ms). */
  countsWindowMs?: number;
}

const OCCUPANCY_WINDOW_MS = 250;
const COUNTS_WINDOW_MS = 250;

/** A room's occupancy announcements: one is due (`pending`), or changes came since the last one (`dirty`). */
interface Occupancy {
  pending: boolean;
  dirty: boolean;
  /** The prompt announcement, and the end of the window after one. */
  soon: NodeJS.Immediate | null;
  windowEnd: NodeJS.Timeout | null;
}

/** Maps domain events to socket frames on the bus. It only delivers; the rules live in the services. */
export class RealtimeService {
  private readonly occupancy = new Map<string, Occupancy>();
  private readonly occupancyWindowMs: number;
  /** Users whose notification_count is due, and the round that will announce them (see countsChanged). */
  private readonly countsDue = new Set<number>();
  private countsRound: { soon: NodeJS.Immediate | null; windowEnd: NodeJS.Timeout | null } | null = null;
  private readonly countsWindowMs: number;
  private closed = false;
  /** Per group, the last chat_updated announcement queued: each waits for the one before (see chat.updated). */
  private readonly chatAnnouncements = new Map<string, Promise<void>>();

  private readonly bus: Bus;
  private readonly rooms: RoomPresence;
  private readonly chats: Deps['chats'];
  private readonly messages: Deps['messages'];
  private readonly blocks: Deps['blocks'];
  private readonly log: FastifyBaseLogger;

  constructor(deps: Deps) {
    this.bus = deps.bus;
    this.rooms = deps.rooms;
    this.chats = deps.chats;
    this.messages = deps.messages;
    this.blocks = deps.blocks;
    this.log = deps.log;
    this.occupancyWindowMs = deps.occupancyWindowMs ?? OCCUPANCY_WINDOW_MS;
    this.countsWindowMs = deps.countsWindowMs ?? COUNTS_WINDOW_MS;
    const on = deps.events.on.bind(deps.events);
    // A fan-out logs only when it fails: that line carries a job id, and the sending request's id where the
    // event has one (a chat message from a socket). Nothing is spent on a log for fan-outs that succeed.
    const track = <T>(work: Promise<T>) => deps.lifecycle?.track(work) ?? work;
    const guard =
      <T>(fn: (p: T) => Promise<void>) =>
      (p: T) =>
        void track(fn(p)).catch((err) =>
          jobLog(this.log, 'realtime fan-out', (p as { requestId?: string }).requestId).error(
            { err },
            'realtime fan-out failed',
          ),
        );

    on(
      'message.published',
      guard(async ({ chatId, isPrivate, message, clientId, memberIds, mutedIds, blockedIds, resend }) => {
        await this.toRoom(chatId, { type: 'chat_message', message, client_id: clientId });
        if (resend || message.kind === 'system') return;
        const away = (await this.rooms.absentAmong(chatId, memberIds)).filter((id) => id !== message.sender);
        if (away.length === 0) return;
        const notice = (mention: boolean, muted: boolean): string =>
          JSON.stringify({
            type: 'new_message',
            message: {
              sender: message.sender_name || message.sender_username,
              sender_avatar: message.sender_avatar,
              message: previewText(message.body),
              chatroom_id: chatId,
              is_private: isPrivate,
              message_id: message.id,
              ...(mention ? { mention: true } : {}),
              ...(muted ? { muted: true } : {}),
            },
          } satisfies NotificationFrame);
        // Those the message mentions are told so, those who muted the chat too (their client raises no
        // notification unless mentioned); everyone else away shares one serialised frame.
        // Someone a block stands between with the sender counts as muted and never as mentioned.
        const blocked = new Set(blockedIds);
        const mentioned = new Set(message.mentions.filter((id) => !blocked.has(id)));
        const muted = new Set([...(mutedIds ?? []), ...blocked]);
        const frames = new Map<string, string>();
        const frameFor = (id: number): string => {
          const key = `${mentioned.has(id)}:${muted.has(id)}`;
          let data = frames.get(key);
          if (data === undefined) {
            data = notice(mentioned.has(id), muted.has(id));
            frames.set(key, data);
          }
          return data;
        };
        await Promise.all(away.map((id) => this.bus.publish(topics.user(id), { data: frameFor(id) })));
        this.countsChanged(away);
      }),
    );
    // A change to a chat's newest message changes its members' chat list preview too.
    const previewChanged = async (chatId: string, latest: boolean) => {
      if (latest) await this.chatsChanged(await this.chats.memberIds(chatId));
    };
    on(
      'message.updated',
      guard(async ({ chatId, message, latest }) => {
        await this.toRoom(chatId, { type: 'message_updated', message });
        await previewChanged(chatId, latest);
      }),
    );
    on(
      'message.deleted',
      guard(async ({ chatId, messageId, latest }) => {
        await this.toRoom(chatId, { type: 'message_deleted', message_id: messageId });
        await previewChanged(chatId, latest);
      }),
    );
    on(
      'reactions.updated',
      guard(({ chatId, messageId, reactions }) =>
        this.toRoom(chatId, { type: 'reactions_updated', message_id: messageId, reactions }),
      ),
    );
    on(
      'messages.read',
      guard(async ({ chatId, userId, messageIds, deliveredIds }) => {
        if (deliveredIds.length > 0)
          await this.toRoom(chatId, { type: 'messages_delivered', message_ids: deliveredIds });
        if (messageIds.length > 0)
          await this.toRoomAbout(
            chatId,
            { type: 'messages_read', message_ids: messageIds, user_id: userId },
            userId,
          );
      }),
    );
    on(
      'messages.delivered',
      guard(({ chatId, messageIds }) =>
        this.toRoom(chatId, { type: 'messages_delivered', message_ids: messageIds }),
      ),
    );
    on(
      'unread.changed',
      guard(async ({ userIds }) => this.countsChanged(userIds)),
    );
    // Each announcement reads the group as it is then. They go out one after another per group, so one read
    // before a change can never land after one read since (the clients would keep the older state).
    on(
      'chat.updated',
      guard(async ({ chatId }) => {
        const announced = (this.chatAnnouncements.get(chatId) ?? Promise.resolve())
          .catch(() => {})
          .then(() => this.announceChat(chatId));
        this.chatAnnouncements.set(chatId, announced);
        try {
          await announced;
        } finally {
          if (this.chatAnnouncements.get(chatId) === announced) this.chatAnnouncements.delete(chatId);
        }
      }),
    );
    on(
      'chats.changed',
      guard(({ userIds }) => this.chatsChanged(userIds)),
    );
    on(
      'member.removed',
      guard(async ({ chatId, userId }) => {
        await this.bus.publish(topics.user(userId), {
          data: '',
          close: { code: CLOSE_NOT_FOUND, chatId },
        });
        await this.chatsChanged([userId]);
        this.countsChanged([userId]);
      }),
    );
    on(
      'chat.deleted',
      guard(async ({ chatId, memberIds }) => {
        await this.bus.publish(topics.room(chatId), { data: '', close: { code: CLOSE_NOT_FOUND } });
        await this.chatsChanged(memberIds);
        this.countsChanged(memberIds);
      }),
    );
    on(
      'blocks.changed',
      guard(async ({ blockerId, blockedId }) => {
        // The blocker's list shows the other offline now; a room they share re-announces who is in it.
        await this.chatsChanged([blockerId]);
        const chatId = await this.chats.privateChatOf?.(blockerId, blockedId);
        if (chatId) this.roomOccupancyChanged(chatId);
      }),
    );
    on(
      'sessions.revoked',
      guard(({ userId, sessionIds }) =>
        this.bus.publish(topics.user(userId), {
          data: '',
          close: { code: CLOSE_AUTH_FAILED, sessionIds },
        }),
      ),
    );
  }

  toRoom(chatId: string, frame: ServerFrame, exceptUserId?: number): Promise<void> {
    return this.bus.publish(topics.room(chatId), { data: JSON.stringify(frame), exceptUserId });
  }

  /**
   * A frame about one person (their typing, their reading) to a room: people a block stands between with them
   * do not get it (issue 13); `exceptUserId` skips that person's own sockets too.
   */
  async toRoomAbout(chatId: string, frame: ServerFrame, aboutUserId: number, exceptUserId?: number) {
    const hidden = this.blocks ? await this.blocks.relatedTo(aboutUserId) : new Set<number>();
    await this.bus.publish(topics.room(chatId), {
      data: JSON.stringify(frame),
      exceptUserId,
      ...(hidden.size > 0 ? { exceptUserIds: [...hidden] } : {}),
    });
  }

  /**
   * chat_updated with the group's detail as it is now, to its room. Members a block stands between see each
   * other offline in it (issue 13).
   */
  private async announceChat(chatId: string) {
    const chat = await this.chats.groupDetail(chatId);
    if (!chat) return;
    const memberIds = chat.members.flatMap((m) => (m.id === null ? [] : [m.id]));
    await this.toRoomPerViewer(chatId, memberIds, (hidden) => [
      {
        type: 'chat_updated',
        chat: {
          ...chat,
          members: chat.members.map((m) =>
            m.id !== null && hidden.has(m.id) ? { ...m, is_online: false, last_seen: null } : m,
          ),
        },
      },
    ]);
  }

  /**
   * Frames that differ by who reads them (issue 13): `framesFor(hidden)` builds them for a reader who must not
   * see the people in `hidden`. Everyone among `viewers` without a block among them shares one copy; each of the
   * others gets their own, addressed to them alone.
   */
  private async toRoomPerViewer(
    chatId: string,
    viewers: number[],
    framesFor: (hidden: ReadonlySet<number>) => ServerFrame[],
  ): Promise<void> {
    const relations = this.blocks
      ? await this.blocks.relationsAmong(viewers)
      : new Map<number, Set<number>>();
    const room = topics.room(chatId);
    const send = (frames: ServerFrame[], to: Partial<BusMessage>) =>
      frames.map((frame) => this.bus.publish(room, { data: JSON.stringify(frame), ...to }));
    await Promise.all([
      ...send(framesFor(new Set()), relations.size > 0 ? { exceptUserIds: [...relations.keys()] } : {}),
      ...[...relations].flatMap(([viewer, hidden]) => send(framesFor(hidden), { onlyUserIds: [viewer] })),
    ]);
  }

  async chatsChanged(userIds: number[]): Promise<void> {
    const data = JSON.stringify({ type: 'chats_changed' } satisfies NotificationFrame);
    await Promise.all(userIds.map((id) => this.bus.publish(topics.user(id), { data })));
  }

  /**
   * These users' unread totals may have changed: each gets a fresh notification_count. Counted together, with
   * one query, in rounds: the first after a quiet spell on the next turn, later ones gathered until a window
   * after the last round, so a busy group costs a round per window instead of a count per away member per
   * message. Every round reads the counts as they are then.
   */
  countsChanged(userIds: number[]): void {
    if (this.closed) return;
    for (const id of userIds) this.countsDue.add(id);
    if (this.countsRound === null && this.countsDue.size > 0)
      this.countsRound = { soon: setImmediate(() => void this.announceCounts()), windowEnd: null };
  }

  private async announceCounts(): Promise<void> {
    const round = this.countsRound;
    if (this.closed || !round) return;
    round.soon = null;
    const userIds = [...this.countsDue];
    this.countsDue.clear();
    try {
      const totals = await this.messages.totalsUnread(userIds);
      await Promise.all(
        userIds.map((id) => {
          const frame: NotificationFrame = { type: 'notification_count', count: totals.get(id) ?? 0 };
          return this.bus.publish(topics.user(id), { data: JSON.stringify(frame) });
        }),
      );
    } catch (err) {
      jobLog(this.log, 'unread counts round').error({ err }, 'unread count announcement failed');
      // Tried again by the next round, at the window's end.
      for (const id of userIds) this.countsDue.add(id);
    }
    if (this.closed) return;
    // Changes from the start of this round on are announced by the next, once the window has passed.
    round.windowEnd = setTimeout(() => {
      round.windowEnd = null;
      if (this.closed) return;
      if (this.countsDue.size === 0) this.countsRound = null;
      else void this.announceCounts();
    }, this.countsWindowMs);
  }

  /**
   * Someone joined or left the room: announce who is in it now (in_chat_users_update and in_chat_count). The
   * first change after a quiet spell goes out on the next turn of the event loop; changes during the window
   * after an announcement wait for its end and go out together, so filling a room of n sends each socket a
   * handful of announcements instead of n. Every announcement reads the room as it is then, so it is right
   * whichever process saw the change.
   */
  roomOccupancyChanged(chatId: string): void {
    if (this.closed) return;
    const room = this.occupancy.get(chatId);
    if (!room) {
      const fresh: Occupancy = { pending: true, dirty: false, soon: null, windowEnd: null };
      fresh.soon = setImmediate(() => void this.announce(chatId, fresh));
      this.occupancy.set(chatId, fresh);
    } else if (!room.pending) {
      room.dirty = true;
    }
  }

  /** Drops pending occupancy announcements; later changes are ignored (the app is closing). */
  close(): void {
    this.closed = true;
    if (this.countsRound?.soon) clearImmediate(this.countsRound.soon);
    if (this.countsRound?.windowEnd) clearTimeout(this.countsRound.windowEnd);
    for (const room of this.occupancy.values()) {
      if (room.soon) clearImmediate(room.soon);
      if (room.windowEnd) clearTimeout(room.windowEnd);
    }
    this.occupancy.clear();
  }

  private async announce(chatId: string, room: Occupancy): Promise<void> {
    if (this.closed) return;
    // A change from here on may miss the read below, so it waits for the window's end.
    room.pending = false;
    room.dirty = false;
    room.soon = null;
    try {
      const userIds = await this.rooms.usersIn(chatId);
      // Someone in the room with a block between them and another there hears of the room without that person.
      await this.toRoomPerViewer(chatId, userIds, (hidden) => {
        const ids = userIds.filter((id) => !hidden.has(id));
        return [
          { type: 'in_chat_users_update', user_ids: ids },
          { type: 'in_chat_count', count: ids.length },
        ];
      });
    } catch (err) {
      jobLog(this.log, 'room occupancy round').error({ err }, 'room occupancy announcement failed');
    }
    if (this.closed) return;
    room.windowEnd = setTimeout(() => {
      room.windowEnd = null;
      if (!room.dirty || this.closed) {
        this.occupancy.delete(chatId);
        return;
      }
      room.pending = true;
      void this.announce(chatId, room);
    }, this.occupancyWindowMs);
  }
}
