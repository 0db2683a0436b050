import { describe, expect, it } from 'vitest';
import { isSingleEmoji, mentionedUsernames, messageEditSchema } from './essentials';

describe('isSingleEmoji', () => {
  it('accepts one emoji, with skin tones, ZWJ sequences, flags and keycaps', () => {
    for (const e of ['👍', '❤️', '👍🏽', '👩‍👩‍👧', '🇫🇷', '1️⃣', '🏳️‍🌈', '😂'])
      expect(isSingleEmoji(e), e).toBe(true);
  });
  it('refuses text, two emoji, digits and empty input', () => {
    for (const e of ['', 'a', 'ok', '👍👍', '👍 ', '1', '#', '<script>', '👍a'])
      expect(isSingleEmoji(e), e).toBe(false);
  });
});

describe('mentionedUsernames', () => {
  it('finds @names at word starts, once each, lower-cased', () => {
    expect(mentionedUsernames('@Ada and @grace_h, ask @ada again. Thanks @alan.')).toEqual([
      'ada',
      'grace_h',
      'alan',
    ]);
  });
  it('ignores addresses and a lone @', () => {
    expect(mentionedUsernames('mail ada@example.com or @ alone')).toEqual([]);
  });
});

describe('messageEditSchema', () => {
  it('applies the sending rules', () => {
    expect(messageEditSchema.safeParse({ body: '  fixed  ' }).data).toEqual({ body: 'fixed' });
    expect(messageEditSchema.safeParse({ body: '   ' }).success).toBe(false);
    expect(messageEditSchema.safeParse({ body: 'x'.repeat(4097) }).success).toBe(false);
  });
});
