import { bodyOrPoll, type NotificationFrame, previewText } from '@parley/protocol';
import type { DomainEventMap } from '../../platform/events';

/**
 * The new_message notices of one message for its members away from the room, serialised once per kind: those
 * the message mentions are told so, those who muted the chat too (their client raises no notification unless
 * mentioned); everyone else shares one frame. Someone a block stands between with the sender gets no notice at
 * all (`audience`): its text never reaches a blocker's screen, and their unread count leaves it out.
 */
export class NewMessageNotices {
  private readonly mentioned: Set<number>;
  private readonly muted: Set<number>;
  /** The serialised frames by kind, `${mentioned}:${muted}`. */
  private readonly frames = new Map<string, string>();

  private readonly blocked: Set<number>;

  constructor(private readonly event: DomainEventMap['message.published']) {
    this.blocked = new Set(event.blockedIds);
    this.mentioned = new Set(event.message.mentions);
    this.muted = new Set(event.mutedIds);
  }

  /** Those of `away` who are told of the message: everyone but the people a block stands between with the sender. */
  audience(away: number[]): number[] {
    return this.blocked.size === 0 ? away : away.filter((id) => !this.blocked.has(id));
  }

  /** The serialised notice for this member. */
  frameFor(userId: number): string {
    const mention = this.mentioned.has(userId);
    const muted = this.muted.has(userId);
    const key = `${mention}:${muted}`;
    let data = this.frames.get(key);
    if (data === undefined) {
      data = this.notice(mention, muted);
      this.frames.set(key, data);
    }
    return data;
  }

  private notice(mention: boolean, muted: boolean): string {
    const { chatId, isPrivate, message } = this.event;
    return JSON.stringify({
      type: 'new_message',
      message: {
        sender: message.sender_name || message.sender_username,
        sender_avatar: message.sender_avatar,
        message: previewText(bodyOrPoll(message)),
        chatroom_id: chatId,
        is_private: isPrivate,
        message_id: message.id,
        ...(message.thread_root ? { thread_root: message.thread_root } : {}),
        ...(mention ? { mention: true } : {}),
        ...(muted ? { muted: true } : {}),
      },
    } satisfies NotificationFrame);
  }
}
