import { useEffect, useMemo, useState } from 'react';
import {
  completeShortcode,
  insertEmoji,
  loadShortcodes,
  type ShortcodeEntry,
  searchShortcodes,
  shortcodeQuery,
} from '../lib/emoji-shortcodes';
import { useSuggestionList } from './use-suggestion-list';

// The composer's :shortcode suggestions: emoji whose names fit the ':name' typed before the caret,
// chosen as the @ suggestions are (use-suggestion-list); one typed out in full with its closing colon becomes
// its emoji. The names load with the first query.

export function useShortcodeSuggestions(
  text: string,
  caret: number,
  apply: (next: { text: string; caret: number }) => void,
) {
  const [entries, setEntries] = useState<ShortcodeEntry[] | null>(null);
  const query = shortcodeQuery(text, caret);
  const wanted = query !== null;
  useEffect(() => {
    if (!wanted || entries) return;
    let live = true;
    loadShortcodes().then(
      (loaded) => live && setEntries(loaded),
      () => undefined, // offline: no suggestions; the next ':' tries again
    );
    return () => {
      live = false;
    };
  }, [wanted, entries]);

  const candidates = useMemo(
    () => (query && entries ? searchShortcodes(entries, query.query) : []),
    [entries, query?.query, query],
  );
  const list = useSuggestionList<ShortcodeEntry>(query, candidates, (entry) => {
    if (query) apply(insertEmoji(text, query, entry.emoji));
  });
  /** The text as typed, or with a shortcode just typed out in full (':tada:') turned into its emoji. */
  const complete = (next: string, nextCaret: number) =>
    (entries && completeShortcode(entries, next, nextCaret)) || null;
  return { ...list, complete };
}

export type ShortcodeSuggestions = ReturnType<typeof useShortcodeSuggestions>;
