import type { NotificationFrame } from '@parley/protocol';
import type { Presence } from '../../platform/presence';
import type { UsersService } from '../accounts/users.service';
import type { ChatsService } from '../chats/chats.service';
import type { BlocksService } from '../safety/blocks.service';
import type { FramePublisher } from './frame-publisher';

export interface PresenceAnnouncementsDeps {
  frames: Pick<FramePublisher, 'toUsers'>;
  presence: Pick<Presence, 'isOnline'>;
  users: Pick<UsersService, 'presenceForOthers'>;
  chats: Pick<ChatsService, 'contactIdsOf'>;
  blocks: Pick<BlocksService, 'relatedTo'>;
}

/**
 * A person came online or went offline: everyone who shares a chat with them hears it on their notification
 * sockets (`presence`), so chat lists, room headers and member lists follow without a reload. Each announcement
 * reads the person as they are when it is made (online now? last seen when?), and one person's announcements
 * go out one after another, so a quick reconnect never leaves others with the older state. Nobody hears of a
 * person who hides their online status, nor of someone a block stands between with them; turning the status
 * off is announced once (offline, never seen), turning it on shows them as they are.
 */
export class PresenceAnnouncements {
  /** Each person's announcement under way: the next one waits for it. */
  private readonly chains = new Map<number, Promise<void>>();

  constructor(private readonly deps: PresenceAnnouncementsDeps) {}

  /** `switched`: the person turned their Online Status on or off, so even a hidden status is announced. */
  changed(userId: number, switched = false): Promise<void> {
    const previous = this.chains.get(userId) ?? Promise.resolve();
    const next = previous.then(() => this.announce(userId, switched));
    const settled = next.catch(() => {});
    this.chains.set(userId, settled);
    void settled.then(() => {
      if (this.chains.get(userId) === settled) this.chains.delete(userId);
    });
    return next;
  }

  private async announce(userId: number, switched: boolean): Promise<void> {
    const { frames, presence, users, chats, blocks } = this.deps;
    const [contacts, hidden] = await Promise.all([chats.contactIdsOf(userId), blocks.relatedTo(userId)]);
    const audience = contacts.filter((id) => !hidden.has(id));
    if (audience.length === 0) return;
    const seen = await users.presenceForOthers(userId, await presence.isOnline(userId), switched);
    if (!seen) return;
    const frame: NotificationFrame = { type: 'presence', user_id: userId, ...seen };
    await frames.toUsers(audience, frame);
  }
}
