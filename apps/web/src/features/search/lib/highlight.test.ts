import { describe, expect, it } from 'vitest';
import { highlightSegments, snippetAround } from './highlight';

describe('highlightSegments', () => {
  it('cuts the text into plain and marked pieces', () => {
    expect(highlightSegments('Meet at the Café tomorrow', [[12, 16]])).toEqual([
      { text: 'Meet at the ', mark: false },
      { text: 'Café', mark: true },
      { text: ' tomorrow', mark: false },
    ]);
  });

  it('sorts ranges, merges overlapping and touching ones, and clamps them to the text', () => {
    expect(
      highlightSegments('abcdefgh', [
        [6, 20],
        [0, 2],
        [1, 3],
        [3, 4],
      ]),
    ).toEqual([
      { text: 'abcd', mark: true },
      { text: 'ef', mark: false },
      { text: 'gh', mark: true },
    ]);
  });

  it('leaves text with no or empty ranges whole, and keeps markup as text', () => {
    expect(highlightSegments('<b>hi</b>', [])).toEqual([{ text: '<b>hi</b>', mark: false }]);
    expect(highlightSegments('plain', [[2, 2]])).toEqual([{ text: 'plain', mark: false }]);
    expect(highlightSegments('', [[0, 3]])).toEqual([]);
  });
});

describe('snippetAround', () => {
  it('keeps a short text as it is, line breaks read as spaces', () => {
    expect(snippetAround('one\ntwo', [[4, 7]])).toEqual({ text: 'one two', ranges: [[4, 7]] });
  });

  it('starts a long text shortly before the first match, at a word, and moves the ranges', () => {
    const text = `${'word '.repeat(40)}needle ${'tail '.repeat(40)}`;
    const at = text.indexOf('needle');
    const { text: cut, ranges } = snippetAround(text, [[at, at + 6]], 60, 12);
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBe(62);
    const [[s, e]] = ranges as [[number, number]];
    expect(cut.slice(s, e)).toBe('needle');
    expect(cut.slice(1, 6)).toBe('word ');
  });

  it('drops ranges that fall outside the cut', () => {
    const text = 'x'.repeat(300);
    expect(
      snippetAround(
        text,
        [
          [0, 1],
          [290, 295],
        ],
        50,
      ).ranges,
    ).toEqual([[0, 1]]);
  });
});
