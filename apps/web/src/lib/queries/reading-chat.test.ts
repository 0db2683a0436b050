import { describe, expect, it } from 'vitest';
import { listAgrees, readingChat, shownUnread, startReading, titleUnread } from './reading-chat';

const chat = (chat_id: string, unread_count: number, muted = false) => ({ chat_id, unread_count, muted });

describe('the chat being read', () => {
  it('shows no badge, whatever the cached count says', () => {
    expect(shownUnread(chat('a', 1), 'a')).toBe(0);
    expect(shownUnread(chat('b', 3), 'a')).toBe(3);
    expect(shownUnread(chat('b', 3), null)).toBe(3);
  });

  it("is left out of the title's count, as muted chats are", () => {
    const chats = [chat('open', 1), chat('quiet', 4, true), chat('other', 2)];
    expect(titleUnread(7, chats, 'open')).toBe(2);
    expect(titleUnread(7, chats, null)).toBe(3);
    expect(titleUnread(2, chats, null)).toBe(0);
    expect(titleUnread(5, undefined, 'open')).toBe(5);
  });

  it('is one chat at a time, and leaving it clears only its own mark', () => {
    const stopA = startReading('a');
    const stopB = startReading('b');
    stopA();
    expect(readingChat.getState().chatId).toBe('b');
    stopB();
    expect(readingChat.getState().chatId).toBeNull();
  });
});

describe('a cached chat list', () => {
  it('agrees with the total when its unmuted counts add up to it', () => {
    expect(listAgrees([chat('a', 1), chat('b', 2, true)], 1)).toBe(true);
    // Reads written since it was fetched: the total fell, the list still shows a badge.
    expect(listAgrees([chat('a', 1)], 0)).toBe(false);
    expect(listAgrees(undefined, 3)).toBe(true);
  });

  it('counts the unread replies of followed threads, in muted chats too', () => {
    const quietWithReplies = { ...chat('q', 5, true), thread_unread_count: 2 };
    expect(listAgrees([chat('a', 1), quietWithReplies], 3)).toBe(true);
    expect(listAgrees([chat('a', 1), quietWithReplies], 1)).toBe(false);
  });
});
