import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { sameItem, senderPath, softwareBadge } from './message-item';

const base = { sender: 2, sender_username: 'grace' } as Message;

describe('senderPath', () => {
  it('goes to /profile for oneself and /user/{username} for others', () => {
    expect(senderPath({ ...base, sender: 1 }, 1)).toBe('/profile');
    expect(senderPath(base, 1)).toBe('/user/grace');
    expect(senderPath({ ...base, sender_username: 'a b' }, 1)).toBe('/user/a%20b');
  });

  it('goes nowhere for a deleted account or a system line', () => {
    expect(senderPath({ ...base, sender: null, sender_username: 'deleted_user' }, 1)).toBeNull();
    expect(senderPath({ ...base, sender_username: 'deleted_user' }, 1)).toBeNull();
    expect(senderPath({ ...base, sender: null, sender_username: '' }, 1)).toBeNull();
  });
});

describe('softwareBadge', () => {
  it("marks a webhook's message 'App', a bot's 'Bot', and a person's not at all", () => {
    expect(softwareBadge({ ...base, sender: null, sender_is_app: true })).toBe('App');
    expect(softwareBadge({ ...base, sender_is_bot: true })).toBe('Bot');
    expect(softwareBadge(base)).toBeNull();
    expect(softwareBadge({ ...base, sender_is_bot: false, sender_is_app: false })).toBeNull();
  });
});

describe('sameItem', () => {
  const props = { pending: null, meId: 1, isGroup: false, onRetry: () => {}, highlighted: false };
  const theirs = {
    id: 5,
    sender: 2,
    body: 'hi',
    is_sent: true,
    is_delivered: false,
    is_read: false,
  } as Message;
  const mine = { ...theirs, sender: 1 } as Message;

  it("skips a redraw when only the receipts of someone else's message changed", () => {
    const read = { ...theirs, is_delivered: true, is_read: true };
    expect(sameItem({ ...props, message: theirs }, { ...props, message: read })).toBe(true);
  });

  it('redraws for one’s own receipts, any other change, or other props', () => {
    expect(sameItem({ ...props, message: mine }, { ...props, message: { ...mine, is_read: true } })).toBe(
      false,
    );
    expect(sameItem({ ...props, message: theirs }, { ...props, message: { ...theirs, body: 'yo' } })).toBe(
      false,
    );
    expect(sameItem({ ...props, message: theirs }, { ...props, message: theirs, highlighted: true })).toBe(
      false,
    );
  });
});
