import { describe, expect, it } from 'vitest';
import { filterByName, nameHighlights, nameMatches } from './name-match';

describe('nameHighlights', () => {
  it('marks each word of the name that a typed word starts, ignoring case and accents', () => {
    expect(nameHighlights('Ada Lovelace', 'lov')).toEqual([[4, 12]]);
    expect(nameHighlights('Zoë Ådahl', 'zoe ada')).toEqual([
      [0, 3],
      [4, 9],
    ]);
  });

  it('matches nothing when one typed word starts no word, or a word only contains it', () => {
    expect(nameHighlights('Ada Lovelace', 'ada grace')).toEqual([]);
    expect(nameHighlights('Ada Lovelace', 'velace')).toEqual([]);
    expect(nameMatches('Ada Lovelace', '')).toBe(false);
  });
});

describe('filterByName', () => {
  const chats = [{ name: 'Weekend hikers' }, { name: 'Café crew' }, { name: 'Ada' }];
  it('keeps the matching items in order, or all of them for a blank filter', () => {
    expect(filterByName(chats, 'cafe', (c) => c.name)).toEqual([{ name: 'Café crew' }]);
    expect(filterByName(chats, ' ', (c) => c.name)).toEqual(chats);
    expect(filterByName(chats, 'x', (c) => c.name)).toEqual([]);
  });
});
