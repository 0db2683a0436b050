import type { Message, Reaction } from '@parley/protocol';

/** A message from Grace (user 2) in chat 'c1', for the message lists' unit tests; `patch` sets what a test is about. */
export const testMessage = (id: number, patch: Partial<Message> = {}): Message => ({
  id,
  sender: 2,
  sender_name: 'Grace',
  sender_username: 'grace',
  sender_avatar: null,
  body: `m${id}`,
  files: [],
  is_read: false,
  is_delivered: false,
  is_sent: true,
  is_error: false,
  edited_at: null,
  is_deleted: false,
  reply_to: null,
  reactions: [],
  mentions: [],
  kind: 'user',
  timestamp: '2026-01-01T12:00:00.000Z',
  chatroom: 'c1',
  client_id: null,
  ...patch,
});

/** A '👍' reaction by these people; `me` as an answer computed for the reader would say. */
export const thumbsUp = (user_ids: number[], me = false): Reaction => ({
  emoji: '👍',
  count: user_ids.length,
  me,
  user_ids,
});
