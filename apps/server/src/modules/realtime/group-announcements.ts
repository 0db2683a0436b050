import { CLOSE_NOT_FOUND } from '@parley/protocol';
import type { ChatsService } from '../chats/chats.service';
import type { FramePublisher } from './frame-publisher';
import { topics } from './hub';

export interface GroupAnnouncementsDeps {
  chats: Pick<ChatsService, 'groupDetail'>;
  frames: Pick<FramePublisher, 'toRoomPerViewer' | 'toWatchersOfRoom' | 'close'>;
}

/**
 * A group's chat_updated, with its detail as it is now, to its room. Each announcement reads the group as it is
 * then. They go out one after another per group, so one read before a change can never land after one read
 * since (the clients would keep the older state).
 */
export class GroupAnnouncements {
  /** Per group, the last announcement queued: each waits for the one before. */
  private readonly queued = new Map<string, Promise<void>>();

  constructor(private readonly deps: GroupAnnouncementsDeps) {}

  /** `closedToWatchers`: the group just turned private, and its outside watchers' sockets are closed. */
  async announce(chatId: string, closedToWatchers = false): Promise<void> {
    const announced = (this.queued.get(chatId) ?? Promise.resolve())
      .catch(() => {})
      .then(() => this.send(chatId, closedToWatchers));
    this.queued.set(chatId, announced);
    try {
      await announced;
    } finally {
      if (this.queued.get(chatId) === announced) this.queued.delete(chatId);
    }
  }

  /**
   * Members a block stands between see each other offline in it; people watching a public group from outside
   * see nobody's presence, and when it turns private they are shown the door (4004, as for no such chat). Only
   * then: a private group has no watchers, and its other changes publish nothing for them.
   */
  private async send(chatId: string, closedToWatchers: boolean): Promise<void> {
    const chat = await this.deps.chats.groupDetail(chatId);
    if (!chat) return;
    if (chat.visibility === 'public') {
      const members = chat.members.map((m) => ({ ...m, is_online: false, last_seen: null }));
      await this.deps.frames.toWatchersOfRoom(chatId, {
        type: 'chat_updated',
        chat: { ...chat, members, is_member: false },
      });
    } else if (closedToWatchers) {
      await this.deps.frames.close(topics.room(chatId), { code: CLOSE_NOT_FOUND, watchers: true });
    }
    const memberIds = chat.members.flatMap((m) => (m.id === null ? [] : [m.id]));
    await this.deps.frames.toRoomPerViewer(chatId, memberIds, (hidden) => [
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
}
