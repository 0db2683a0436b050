import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  completeShortcode,
  insertAtCaret,
  insertEmoji,
  searchShortcodes,
  shortcodeIndex,
  shortcodeQuery,
} from './emoji-shortcodes';

// The real data file the app serves.
const require = createRequire(import.meta.url);
const records = JSON.parse(
  readFileSync(require.resolve('emoji-picker-element-data/en/emojibase/data.json'), 'utf8'),
);
const index = shortcodeIndex(records);

describe('shortcodeQuery', () => {
  it('finds a :name of two characters or more just before the caret', () => {
    expect(shortcodeQuery('hello :smi', 10)).toEqual({ start: 6, query: 'smi' });
    expect(shortcodeQuery(':+1', 3)).toEqual({ start: 0, query: '+1' });
    expect(shortcodeQuery('(:Tada', 6)).toEqual({ start: 1, query: 'tada' });
  });

  it('ignores one letter, times, addresses and a caret elsewhere', () => {
    expect(shortcodeQuery('hi :s', 5)).toBeNull();
    expect(shortcodeQuery('at 10:30', 8)).toBeNull();
    expect(shortcodeQuery('https://x.org', 13)).toBeNull();
    expect(shortcodeQuery('hello :smi there', 16)).toBeNull();
  });
});

describe('searchShortcodes', () => {
  it(':smi offers 😄 :smile: first, then other smiles, each emoji once', () => {
    const found = searchShortcodes(index, 'smi');
    expect(found[0]).toMatchObject({ shortcode: 'smile', emoji: '😄' });
    expect(found.map((e) => e.shortcode)).toContain('smirk');
    expect(new Set(found.map((e) => e.emoji)).size).toBe(found.length);
    expect(found.length).toBeLessThanOrEqual(8);
  });

  it('matches a word inside a shortcode after the ones that start with it', () => {
    const found = searchShortcodes(index, 'heart', 30);
    expect(found[0]!.shortcode.startsWith('heart')).toBe(true);
    expect(found.some((e) => !e.shortcode.startsWith('heart'))).toBe(true);
  });

  it('finds nothing for nonsense', () => {
    expect(searchShortcodes(index, 'zzqx')).toEqual([]);
  });
});

describe('insertEmoji', () => {
  it('replaces the :name typed with the emoji and puts the caret after it', () => {
    expect(insertEmoji('so :smi and', { start: 3, query: 'smi' }, '😄')).toEqual({
      text: 'so 😄 and',
      caret: 5,
    });
    expect(insertAtCaret('ab', 1, '🎉')).toEqual({ text: 'a🎉b', caret: 3 });
  });
});

describe('completeShortcode', () => {
  it('turns a shortcode typed out in full into its emoji as the closing colon is typed', () => {
    expect(completeShortcode(index, 'yay :tada:', 10)).toEqual({ text: 'yay 🎉', caret: 6 });
    expect(completeShortcode(index, ':+1: ok', 4)?.text).toMatch(/^👍\uFE0F? ok$/u);
  });

  it('leaves other colons alone', () => {
    expect(completeShortcode(index, 'yay :nosuchname:', 16)).toBeNull();
    expect(completeShortcode(index, 'at 10:30:', 9)).toBeNull();
    expect(completeShortcode(index, 'note: ', 5)).toBeNull();
    expect(completeShortcode(index, ':tada: x', 8)).toBeNull();
  });
});
