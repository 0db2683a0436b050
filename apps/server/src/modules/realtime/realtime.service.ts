import {
  CLOSE_AUTH_FAILED,
  CLOSE_NOT_FOUND,
  CLOSE_SERVICE_RESTART,
  type ServerFrame,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../platform/bus';
import type { DomainEventMap, DomainEvents } from '../../platform/events';
import { jobLog } from '../../platform/job-log';
import type { Lifecycle } from '../../platform/lifecycle';
import type { Presence } from '../../platform/presence';
import type { RoomPresence } from '../../platform/room-presence';
import type { UsersService } from '../accounts/users.service';
import type { ChatsService } from '../chats/chats.service';
import type { MessagesService } from '../messages/messages.service';
import type { BlocksService } from '../safety/blocks.service';
import { FramePublisher } from './frame-publisher';
import { GroupAnnouncements } from './group-announcements';
import { topics } from './hub';
import { NewMessageNotices } from './new-message-notices';
import { pollFrames } from './poll-frames';
import { PresenceAnnouncements } from './presence-announcements';
import { RoomOccupancy } from './room-occupancy';
import { UnreadCountRounds } from './unread-count-rounds';

export interface RealtimeDeps {
  bus: Bus;
  events: DomainEvents;
  chats: Pick<ChatsService, 'groupDetail' | 'memberIds' | 'privateChatOf' | 'contactIdsOf'>;
  messages: Pick<MessagesService, 'totalsUnread'>;
  rooms: RoomPresence;
  /** Who is online, and how others see a person (their Online Status switch, last seen): presence frames. */
  presence: Pick<Presence, 'isOnline'>;
  users: Pick<UsersService, 'presenceForOthers'>;
  log: FastifyBaseLogger;
  /** Counts each fan-out in, so a stop closes the database and Redis only once they are done. */
  lifecycle: Pick<Lifecycle, 'track'>;
  /** People a block stands between see nothing of each other's presence, typing or reading. */
  blocks: Pick<BlocksService, 'relatedTo' | 'relationsAmong'>;
}

type Event<K extends keyof DomainEventMap> = DomainEventMap[K];

/**
 * Maps domain events to socket frames on the bus, one method per event. It only delivers; the rules live in the
 * services.
 */
export class RealtimeService {
  private readonly frames: FramePublisher;
  private readonly counts: UnreadCountRounds;
  private readonly occupancy: RoomOccupancy;
  private readonly groups: GroupAnnouncements;
  private readonly presence: PresenceAnnouncements;

  constructor(private readonly deps: RealtimeDeps) {
    const frames = new FramePublisher(deps);
    this.frames = frames;
    this.counts = new UnreadCountRounds({ frames, messages: deps.messages, log: deps.log });
    this.occupancy = new RoomOccupancy({ frames, rooms: deps.rooms, log: deps.log });
    this.groups = new GroupAnnouncements({ frames, chats: deps.chats });
    this.presence = new PresenceAnnouncements({ frames, ...deps });
    this.on('message.published', (e) => this.onMessagePublished(e));
    this.on('message.updated', (e) => this.onMessageUpdated(e));
    this.on('message.deleted', (e) => this.onMessageDeleted(e));
    this.on('reactions.updated', (e) => this.onReactionsUpdated(e));
    this.on('thread.updated', (e) => this.onThreadUpdated(e));
    this.on('pins.updated', (e) => this.onPinsUpdated(e));
    this.on('voice.played', (e) => this.onVoicePlayed(e));
    this.on('poll.updated', (e) => this.onPollUpdated(e));
    this.on('messages.read', (e) => this.onMessagesRead(e));
    this.on('messages.delivered', (e) => this.onMessagesDelivered(e));
    this.on('unread.changed', (e) => this.onUnreadChanged(e));
    this.on('chat.updated', (e) => this.onChatUpdated(e));
    this.on('chats.changed', (e) => this.onChatsChanged(e));
    this.on('member.removed', (e) => this.onMemberRemoved(e));
    this.on('member.joined', (e) => this.onMemberJoined(e));
    this.on('chat.deleted', (e) => this.onChatDeleted(e));
    this.on('blocks.changed', (e) => this.onBlocksChanged(e));
    this.on('presence.changed', (e) => this.presence.changed(e.userId, e.switched));
    this.on('sessions.revoked', (e) => this.onSessionsRevoked(e));
  }

  /** A frame about one person (their typing) to a room, hidden from people a block stands between with them. */
  toRoomAbout(chatId: string, frame: ServerFrame, aboutUserId: number, exceptUserId?: number): Promise<void> {
    return this.frames.toRoomAbout(chatId, frame, aboutUserId, exceptUserId);
  }

  /** These people's unread totals may have changed: each gets a fresh notification_count (UnreadCountRounds). */
  countsChanged(userIds: number[]): void {
    this.counts.changed(userIds);
  }

  /** Someone joined or left the room: who is in it is announced (RoomOccupancy). */
  roomOccupancyChanged(chatId: string): void {
    this.occupancy.changed(chatId);
  }

  /** Drops the announcements due; later changes are ignored (the app is closing). */
  close(): void {
    this.counts.close();
    this.occupancy.close();
  }

  /**
   * Subscribes a fan-out to an event. It is tracked by the lifecycle and logs only when it fails: that line
   * carries a job id, and the sending request's id where the event has one (a chat message from a socket).
   * Nothing is spent on a log for fan-outs that succeed.
   */
  private on<K extends keyof DomainEventMap>(name: K, fanOut: (e: Event<K>) => Promise<void>): void {
    const { events, lifecycle, log } = this.deps;
    events.on(name, (e) => {
      void lifecycle.track(fanOut(e)).catch((err) => {
        const requestId = (e as { requestId?: string }).requestId;
        jobLog(log, 'realtime fan-out', requestId).error({ err }, 'realtime fan-out failed');
      });
    });
  }

  /** The message to its room; a new_message notice, then a fresh count, to the members away from it. */
  private async onMessagePublished(e: Event<'message.published'>): Promise<void> {
    const { chatId, message } = e;
    await this.frames.toRoom(chatId, { type: 'chat_message', message, client_id: e.clientId });
    if (e.resend || message.kind === 'system') return;
    const away = (await this.deps.rooms.absentAmong(chatId, e.memberIds)).filter(
      (id) => id !== message.sender,
    );
    if (away.length === 0) return;
    const notices = new NewMessageNotices(e);
    await Promise.all(notices.audience(away).map((id) => this.frames.toUser(id, notices.frameFor(id))));
    this.counts.changed(away);
  }

  private async onMessageUpdated({ chatId, message, latest }: Event<'message.updated'>): Promise<void> {
    await this.frames.toRoom(chatId, { type: 'message_updated', message });
    await this.previewChanged(chatId, latest);
  }

  private async onMessageDeleted({ chatId, messageId, latest }: Event<'message.deleted'>): Promise<void> {
    await this.frames.toRoom(chatId, { type: 'message_deleted', message_id: messageId });
    await this.previewChanged(chatId, latest);
  }

  /** A change to a chat's newest message changes its members' chat list preview too. */
  private async previewChanged(chatId: string, latest: boolean): Promise<void> {
    if (latest) await this.chatsChanged(await this.deps.chats.memberIds(chatId));
  }

  /** A thread's new summary to its room, for its root wherever it shows. */
  private onThreadUpdated({ chatId, rootId, thread }: Event<'thread.updated'>): Promise<void> {
    return this.frames.toRoom(chatId, { type: 'thread_updated', root_id: rootId, thread });
  }

  private onPinsUpdated({ chatId, pinnedIds }: Event<'pins.updated'>): Promise<void> {
    return this.frames.toRoom(chatId, { type: 'pins_updated', chat_id: chatId, pinned_ids: pinnedIds });
  }

  /** A poll as it now stands to its room, each reader told their own choices alone. */
  private onPollUpdated(e: Event<'poll.updated'>): Promise<void> {
    const { frame, variants } = pollFrames(e);
    return this.frames.toRoomVariants(e.chatId, frame, variants);
  }

  /** A voice message played: to the room (its sender), as a read is, not to people a block stands between. */
  private async onVoicePlayed({ chatId, messageId, fileIds, userId }: Event<'voice.played'>): Promise<void> {
    for (const fileId of fileIds)
      await this.frames.toRoomAbout(
        chatId,
        { type: 'voice_played', message_id: messageId, file_id: fileId, user_id: userId },
        userId,
      );
  }

  private onReactionsUpdated({ chatId, messageId, reactions }: Event<'reactions.updated'>): Promise<void> {
    return this.frames.toRoom(chatId, { type: 'reactions_updated', message_id: messageId, reactions });
  }

  /** Delivered marks to the room; read marks too, but not to people a block stands between with the reader. */
  private async onMessagesRead(e: Event<'messages.read'>): Promise<void> {
    const { chatId, userId } = e;
    if (e.deliveredIds.length > 0)
      await this.frames.toMembersInRoom(chatId, { type: 'messages_delivered', message_ids: e.deliveredIds });
    if (e.messageIds.length > 0)
      await this.frames.toRoomAbout(
        chatId,
        { type: 'messages_read', message_ids: e.messageIds, user_id: userId },
        userId,
      );
  }

  private onMessagesDelivered({ chatId, messageIds }: Event<'messages.delivered'>): Promise<void> {
    return this.frames.toMembersInRoom(chatId, { type: 'messages_delivered', message_ids: messageIds });
  }

  private async onUnreadChanged({ userIds }: Event<'unread.changed'>): Promise<void> {
    this.counts.changed(userIds);
  }

  private onChatUpdated({ chatId, closedToWatchers }: Event<'chat.updated'>): Promise<void> {
    return this.groups.announce(chatId, !!closedToWatchers);
  }

  private onChatsChanged({ userIds }: Event<'chats.changed'>): Promise<void> {
    return this.chatsChanged(userIds);
  }

  /** The removed member's sockets in the room are closed; their chat list and count change. */
  private async onMemberRemoved({ chatId, userId }: Event<'member.removed'>): Promise<void> {
    await this.frames.close(topics.user(userId), { code: CLOSE_NOT_FOUND, chatId });
    await this.chatsChanged([userId]);
    this.counts.changed([userId]);
  }

  /** The new member's sockets watching the room are closed with 1012: they reopen at once, as a member's. */
  private onMemberJoined({ chatId, userId }: Event<'member.joined'>): Promise<void> {
    return this.frames.close(topics.user(userId), { code: CLOSE_SERVICE_RESTART, chatId, watchers: true });
  }

  /** Every socket in the deleted chat's room is closed; its members' chat lists and counts change. */
  private async onChatDeleted({ chatId, memberIds }: Event<'chat.deleted'>): Promise<void> {
    await this.frames.close(topics.room(chatId), { code: CLOSE_NOT_FOUND });
    await this.chatsChanged(memberIds);
    this.counts.changed(memberIds);
  }

  /** The blocker's list shows the other offline now; a room they share re-announces who is in it. */
  private async onBlocksChanged({ blockerId, blockedId }: Event<'blocks.changed'>): Promise<void> {
    await this.chatsChanged([blockerId]);
    const chatId = await this.deps.chats.privateChatOf(blockerId, blockedId);
    if (chatId) this.occupancy.changed(chatId);
  }

  /** The revoked sessions' sockets are closed with 4001. */
  private onSessionsRevoked({ userId, sessionIds }: Event<'sessions.revoked'>): Promise<void> {
    return this.frames.close(topics.user(userId), { code: CLOSE_AUTH_FAILED, sessionIds });
  }

  private chatsChanged(userIds: number[]): Promise<void> {
    return this.frames.toUsers(userIds, { type: 'chats_changed' });
  }
}
