import { describe, expect, it } from 'vitest';
import { neighbourChat } from './use-chat-hotkeys';

const chats = ['a', 'b', 'c'].map((chat_id) => ({ chat_id, is_private: true }));

describe('Alt+↑ / Alt+↓ between chats', () => {
  it('moves to the previous or next chat in list order, and stops at the ends', () => {
    expect(neighbourChat(chats, 'b', 1)?.chat_id).toBe('c');
    expect(neighbourChat(chats, 'b', -1)?.chat_id).toBe('a');
    expect(neighbourChat(chats, 'c', 1)).toBeNull();
    expect(neighbourChat(chats, 'a', -1)).toBeNull();
  });

  it('starts at the first (↓) or the last (↑) when no listed chat is open', () => {
    expect(neighbourChat(chats, null, 1)?.chat_id).toBe('a');
    expect(neighbourChat(chats, 'gone', -1)?.chat_id).toBe('c');
    expect(neighbourChat([], null, 1)).toBeNull();
  });
});
