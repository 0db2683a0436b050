import { foldForSearch, searchWords } from '@parley/protocol';

/**
 * What a person typed, as search terms: each bare word matches whole or as a prefix; a quoted phrase matches
 * those words in a row. Everything else (operators, quotes left open, `*`, `NEAR(`, `OR`) is plain text: only
 * runs of letters and digits are kept, so no input reaches the index's own query syntax.
 */
export interface SearchTerms {
  prefixes: string[];
  phrases: string[][];
}

const MAX_TERMS = 12;

export function parseSearch(q: string): SearchTerms {
  const prefixes: string[] = [];
  const phrases: string[][] = [];
  // Text between pairs of double quotes is a phrase; an odd quote is just a character.
  const parts = q.split('"');
  const closed = parts.length % 2 === 1 ? parts.length : parts.length - 1;
  parts.forEach((part, i) => {
    const words = searchWords(part).map((w) => foldForSearch(w.word));
    if (i % 2 === 1 && i < closed) {
      if (words.length > 1) phrases.push(words);
      else if (words.length === 1) phrases.push(words);
    } else prefixes.push(...words);
  });
  return {
    prefixes: [...new Set(prefixes)].slice(0, MAX_TERMS),
    phrases: phrases.slice(0, MAX_TERMS),
  };
}

export const hasTerms = (t: SearchTerms) => t.prefixes.length > 0 || t.phrases.length > 0;

/** An FTS5 query: every term must match; each token quoted, so it is never read as syntax. */
export function toFts5(t: SearchTerms): string {
  const quote = (w: string) => `"${w.replaceAll('"', '""')}"`;
  return [...t.prefixes.map((w) => `${quote(w)}*`), ...t.phrases.map((p) => quote(p.join(' ')))].join(
    ' AND ',
  );
}

/** A PostgreSQL tsquery in to_tsquery syntax: words are letters and digits only, so quoting is safe. */
export function toTsquery(t: SearchTerms): string {
  const lexeme = (w: string) => `'${w}'`;
  return [
    ...t.prefixes.map((w) => `${lexeme(w)}:*`),
    ...t.phrases.map((p) => `(${p.map(lexeme).join(' <-> ')})`),
  ].join(' & ');
}

/** [start, end) ranges of the words in `body` that the terms matched (prefix words by prefix, phrase words whole). */
export function highlightsOf(body: string, t: SearchTerms): [number, number][] {
  const whole = new Set(t.phrases.flat());
  return searchWords(body).flatMap(({ word, start, end }) => {
    const folded = foldForSearch(word);
    const hit = whole.has(folded) || t.prefixes.some((p) => folded.startsWith(p));
    return hit ? [[start, end] as [number, number]] : [];
  });
}
