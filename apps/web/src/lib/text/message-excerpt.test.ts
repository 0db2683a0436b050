import { pollFromInput } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { messageExcerpt } from './message-excerpt';

describe('messageExcerpt', () => {
  const poll = pollFromInput({ question: 'Lunch?', options: ['a', 'b'], multiple: false, anonymous: true });
  it('stands for a poll by its question, after the text', () => {
    expect(messageExcerpt({ is_deleted: false, body: '', files: [], poll })).toBe('📊 Lunch?');
    expect(messageExcerpt({ is_deleted: false, body: 'Vote!', files: [], poll })).toBe('Vote!');
    expect(messageExcerpt({ is_deleted: true, body: '', files: [], poll: null })).toBe(
      'This message was deleted',
    );
  });
});
