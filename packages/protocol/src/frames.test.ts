import { describe, expect, it } from 'vitest';
import { type Message, messageSchema } from './chat';
import { notificationFrameSchema, serverFrameSchema } from './frames';

const message: Message = {
  id: 7,
  sender: 3,
  sender_name: 'Ada Lovelace',
  sender_username: 'ada',
  sender_avatar: null,
  sender_is_bot: false,
  sender_is_app: false,
  body: 'hello',
  files: [{ id: 1, type: 'image', file: '/media/x.png', name: 'x.png', size: 10, thumbnail: null }],
  is_read: false,
  is_delivered: false,
  is_sent: true,
  is_error: false,
  kind: 'user',
  timestamp: '2026-11-25T05:00:00.000Z',
  chatroom: 'abc',
  client_id: 'c1',
  edited_at: null,
  is_deleted: false,
  reply_to: { id: 5, sender_name: 'Grace Hopper', body: 'hi', is_deleted: false },
  reactions: [{ emoji: '👍', count: 1, me: false, user_ids: [4] }],
  mentions: [],
  thread_root: null,
  also_in_chat: false,
  thread: null,
  forwarded: true,
  link_preview: null,
  poll: null,
};

describe('server frames', () => {
  it('accept what the server sends', () => {
    expect(serverFrameSchema.parse({ type: 'chat_message', message, client_id: 'c1' })).toEqual({
      type: 'chat_message',
      message,
      client_id: 'c1',
    });
    expect(serverFrameSchema.safeParse({ type: 'in_chat_count', count: 2 }).success).toBe(true);
    expect(notificationFrameSchema.safeParse({ type: 'chats_changed' }).success).toBe(true);
    const presence = {
      type: 'presence',
      user_id: 7,
      is_online: false,
      last_seen: '2025-01-01T00:00:00.000Z',
    };
    expect(notificationFrameSchema.parse(presence)).toEqual(presence);
    expect(notificationFrameSchema.safeParse({ ...presence, last_seen: null }).success).toBe(true);
  });

  it('refuse a frame of an unknown type or with a wrong field', () => {
    expect(serverFrameSchema.safeParse({ type: 'nope' }).success).toBe(false);
    expect(serverFrameSchema.safeParse({ type: 'in_chat_count', count: '2' }).success).toBe(false);
    const noBody: Partial<Message> = { ...message };
    delete noBody.body;
    expect(serverFrameSchema.safeParse({ type: 'chat_message', message: noBody }).success).toBe(false);
    expect(notificationFrameSchema.safeParse({ type: 'notification_count' }).success).toBe(false);
    expect(
      notificationFrameSchema.safeParse({ type: 'presence', user_id: 7, is_online: 'yes' }).success,
    ).toBe(false);
  });

  it('keep the fields of a message in the order the server builds them', () => {
    // The history page is serialised from this schema: its key order is the order on the wire.
    expect(Object.keys(messageSchema.shape)).toEqual(Object.keys(message));
  });
});
