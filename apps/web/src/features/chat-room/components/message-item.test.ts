import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { senderPath } from './message-item';

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
