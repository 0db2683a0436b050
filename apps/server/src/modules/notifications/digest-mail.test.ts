import type { ChatListItem } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { digestMail } from './email-digest.service';

const chat = (id: number, name: string, unread: number): ChatListItem => ({
  id,
  chat_id: `c${id}`,
  is_private: false,
  display_name: name,
  avatar: null,
  other_user: null,
  is_online: false,
  member_count: 3,
  last_message: 'hi',
  last_message_time: null,
  is_admin: false,
  unread_count: unread,
});

describe('digestMail', () => {
  it('lists each unread chat with its link', () => {
    const mail = digestMail(
      'ada@example.com',
      'Ada',
      [chat(1, 'Looms', 2), chat(2, 'Engines', 1)],
      'https://p.test',
    );
    expect(mail.subject).toBe('You have 3 unread messages on Parley');
    expect(mail.text).toContain('- Looms: 2 unread messages\n  https://p.test/groups/c1');
    expect(mail.text).toContain('- Engines: 1 unread message\n');
  });

  it('says where the person was mentioned', () => {
    const mail = digestMail(
      'ada@example.com',
      'Ada',
      [chat(1, 'Looms', 2), chat(2, 'Engines', 1)],
      'https://p.test',
      new Set([2]),
    );
    expect(mail.subject).toBe('You were mentioned: You have 3 unread messages on Parley');
    expect(mail.text).toContain('- Engines: 1 unread message (you were mentioned)');
    expect(mail.text).not.toContain('Looms: 2 unread messages (you were mentioned)');
  });

  it('counts unread replies of followed threads beside the messages', () => {
    const mail = digestMail(
      'ada@example.com',
      'Ada',
      [chat(1, 'Looms', 2), chat(2, 'Engines', 0)],
      'https://p.test',
      new Set(),
      new Map([
        [1, 1],
        [2, 3],
      ]),
    );
    expect(mail.subject).toBe('You have 6 unread messages on Parley');
    expect(mail.text).toContain('- Looms: 2 unread messages, 1 unread reply in threads\n');
    expect(mail.text).toContain('- Engines: 3 unread replies in threads\n');
  });
});
