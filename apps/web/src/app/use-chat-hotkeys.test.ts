import { describe, expect, it } from 'vitest';
import { chatInAddress, neighbourChat } from './use-chat-hotkeys';

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

describe('chatInAddress', () => {
  it('reads the chat from a room, a group or their settings, and nothing elsewhere', () => {
    expect(chatInAddress('/chats/abc')).toBe('abc');
    expect(chatInAddress('/chats/abc/settings')).toBe('abc');
    expect(chatInAddress('/groups/g-1')).toBe('g-1');
    expect(chatInAddress('/groups/g-1/settings')).toBe('g-1');
    expect(chatInAddress('/chats')).toBeNull();
    expect(chatInAddress('/profile')).toBeNull();
  });
});
