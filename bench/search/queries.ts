import SQLite from 'better-sqlite3';
import { CORPUS_VERSION, corpusWords, SEARCHER_ID } from './corpus';
import { pick, type Random, seededRandom } from './words';

// The 200 queries the searcher types, the same every run (a seeded random source over the corpus): single
// common words, rare words, two words, quoted phrases taken from their own chats, prefixes, and a common word
// `from` someone in their chats. Half are typed without their accents, as people do ('cafe' for café).
export const SHAPES = ['common', 'rare', 'two words', 'phrase', 'prefix', 'from'] as const;
export type Shape = (typeof SHAPES)[number];
const PER_SHAPE: Record<Shape, number> = {
  common: 35,
  rare: 35,
  'two words': 35,
  phrase: 35,
  prefix: 30,
  from: 30,
};

export interface SearchQuery {
  shape: Shape;
  q: string;
  /** A username (the route's `from`). */
  from?: string;
}

const unaccented = (w: string) => w.normalize('NFD').replace(/\p{M}/gu, '');
const ranked = (random: Random, words: string[], from: number, to: number) =>
  words[from + Math.floor(random() * (to - from))] as string;

export function searchQueries(corpusFile: string): SearchQuery[] {
  const random = seededRandom(CORPUS_VERSION * 1000 + 200);
  const words = corpusWords();
  const typed = (w: string) => (random() < 0.5 ? unaccented(w) : w);
  const sqlite = new SQLite(corpusFile, { readonly: true });
  try {
    const bodies = sqlite
      .prepare(
        `SELECT m.body FROM messages m JOIN chat_members cm ON cm.chat_id = m.chat_id AND cm.user_id = ?
         WHERE m.id % 97 = 0 ORDER BY m.id`,
      )
      .pluck()
      .all(SEARCHER_ID) as string[];
    const senders = sqlite
      .prepare(
        `SELECT DISTINCT u.username FROM chat_members mine JOIN chat_members cm ON cm.chat_id = mine.chat_id
         JOIN users u ON u.id = cm.user_id WHERE mine.user_id = ? AND cm.user_id <> ? ORDER BY u.username`,
      )
      .pluck()
      .all(SEARCHER_ID, SEARCHER_ID) as string[];
    const make: Record<Shape, () => SearchQuery> = {
      common: () => ({ shape: 'common', q: typed(ranked(random, words, 10, 200)) }),
      rare: () => ({ shape: 'rare', q: typed(ranked(random, words, 5_000, words.length)) }),
      'two words': () => ({
        shape: 'two words',
        q: `${typed(ranked(random, words, 10, 500))} ${typed(ranked(random, words, 200, 3_000))}`,
      }),
      phrase: () => {
        for (;;) {
          const tokens =
            pick(random, bodies)
              .toLowerCase()
              .match(/[\p{L}\p{N}']+/gu) ?? [];
          if (tokens.length < 3) continue;
          const at = Math.floor(random() * (tokens.length - 1));
          return { shape: 'phrase', q: `"${tokens[at]} ${tokens[at + 1]}"` };
        }
      },
      prefix: () => {
        for (;;) {
          const w = unaccented(ranked(random, words, 50, 5_000));
          if (w.length >= 6) return { shape: 'prefix', q: w.slice(0, 3 + Math.floor(random() * 2)) };
        }
      },
      from: () => ({
        shape: 'from',
        q: typed(ranked(random, words, 10, 300)),
        from: pick(random, senders),
      }),
    };
    const list: SearchQuery[] = [];
    for (const shape of SHAPES) for (let i = 0; i < PER_SHAPE[shape]; i++) list.push(make[shape]());
    // Shapes interleaved, so a slow stretch of the run does not fall on one shape.
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j] as SearchQuery, list[i] as SearchQuery];
    }
    return list;
  } finally {
    sqlite.close();
  }
}
