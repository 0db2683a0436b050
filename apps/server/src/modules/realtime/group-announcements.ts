import type { ChatsService } from '../chats/chats.service';
import type { FramePublisher } from './frame-publisher';

export interface GroupAnnouncementsDeps {
  chats: Pick<ChatsService, 'groupDetail'>;
  frames: Pick<FramePublisher, 'toRoomPerViewer'>;
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

  async announce(chatId: string): Promise<void> {
    const announced = (this.queued.get(chatId) ?? Promise.resolve())
      .catch(() => {})
      .then(() => this.send(chatId));
    this.queued.set(chatId, announced);
    try {
      await announced;
    } finally {
      if (this.queued.get(chatId) === announced) this.queued.delete(chatId);
    }
  }

  /** Members a block stands between see each other offline in it. */
  private async send(chatId: string): Promise<void> {
    const chat = await this.deps.chats.groupDetail(chatId);
    if (!chat) return;
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
