import { foldForSearch, searchWords } from '@parley/protocol';

// Names are matched the way the server matches people: every word typed starts a word of the name, ignoring
// case and accents ('ada lov' and 'zoe' find 'Ada Lovelace' and 'Zoë').

const typedWords = (q: string) => searchWords(q).map((w) => foldForSearch(w.word));

/** [start, end) ranges of the name's words that a typed word starts; [] when some typed word matches nothing. */
export function nameHighlights(name: string, q: string): [number, number][] {
  const typed = typedWords(q);
  if (typed.length === 0) return [];
  const words = searchWords(name).map((w) => ({ ...w, folded: foldForSearch(w.word) }));
  if (!typed.every((t) => words.some((w) => w.folded.startsWith(t)))) return [];
  return words
    .filter((w) => typed.some((t) => w.folded.startsWith(t)))
    .map((w) => [w.start, w.end] as [number, number]);
}

export const nameMatches = (name: string, q: string): boolean => nameHighlights(name, q).length > 0;

/** The items whose name matches `q`, in their order; all of them when nothing searchable is typed. */
export function filterByName<T>(items: readonly T[], q: string, nameOf: (item: T) => string): T[] {
  if (typedWords(q).length === 0) return [...items];
  return items.filter((item) => nameMatches(nameOf(item), q));
}
