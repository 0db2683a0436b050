import type { Message, SavedMessage } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { savedMessagePath } from './saved-path';

const entry = (message: Partial<Message>, is_private = false): SavedMessage => ({
  message: { id: 42, thread_root: null, also_in_chat: false, ...message } as Message,
  chat_id: 'abc_DEF-1',
  chat_name: 'Crew',
  is_private,
  saved_at: '2026-11-28T10:00:00.000Z',
});

describe('savedMessagePath', () => {
  it('opens the room at the message, /groups or /chats by the chat', () => {
    expect(savedMessagePath(entry({}))).toBe('/groups/abc_DEF-1?message=42');
    expect(savedMessagePath(entry({}, true))).toBe('/chats/abc_DEF-1?message=42');
  });

  it('opens the thread of a reply kept inside it, and the room for one also sent to the chat', () => {
    expect(savedMessagePath(entry({ thread_root: 7 }))).toBe('/groups/abc_DEF-1/thread/7');
    expect(savedMessagePath(entry({ thread_root: 7, also_in_chat: true }))).toBe(
      '/groups/abc_DEF-1?message=42',
    );
  });
});
