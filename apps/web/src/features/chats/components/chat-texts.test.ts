import { describe, expect, it } from 'vitest';
import { t } from '../../../lib/i18n/i18n';
import { lastMessagePreview } from './chat-texts';

describe('chat list texts', () => {
  it('says one in the singular', () => {
    expect([1, 3].map((count) => t('browse.chats.members', { count }))).toEqual(['1 member', '3 members']);
  });

  it('previews what Parley wrote in the reader’s words, and a person’s look-alike as written', () => {
    const system = { last_message: 'Ada pinned a message', last_message_files: null };
    expect(
      lastMessagePreview({ ...system, last_message_kind: 'system' }, (id, v) => `${id} ${v?.name}`),
    ).toBe('browse.system.pinned Ada');
    expect(lastMessagePreview(system, (id) => id)).toBe('Ada pinned a message');
    expect(
      lastMessagePreview(
        { last_message: 'This message was deleted', last_message_files: null, last_message_kind: 'deleted' },
        (id) => id,
      ),
    ).toBe('room.msg.deleted');
  });

  it('previews the text, else the files, else nothing', () => {
    expect(lastMessagePreview({ last_message: 'hello', last_message_files: null })).toBe('hello');
    expect(lastMessagePreview({ last_message: 'x'.repeat(50), last_message_files: null })).toBe(
      `${'x'.repeat(40)}...`,
    );
    expect(
      lastMessagePreview({ last_message: '', last_message_files: { count: 1, name: 'photo.png' } }),
    ).toBe('📎 photo.png');
    expect(lastMessagePreview({ last_message: '', last_message_files: { count: 2, name: 'a.pdf' } })).toBe(
      '📎 2 files',
    );
    expect(
      lastMessagePreview({
        last_message: '',
        last_message_files: { count: 1, name: 'voice-1732800000.webm', kind: 'voice' },
      }),
    ).toBe('🎤 Voice message');
    expect(lastMessagePreview({ last_message: '', last_message_files: null })).toBeNull();
    expect(lastMessagePreview({ last_message: null })).toBeNull();
  });
});
