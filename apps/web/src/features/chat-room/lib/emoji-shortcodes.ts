import { EMOJI_DATA_URL } from './emoji-data';

// `:shortcode` completion in the composer: typing ':smi' offers 😄 :smile:, 😏 :smirk: … chosen
// with ↑/↓ and Enter or Tab, like the @ suggestions. The names are emojibase's shortcodes (the same data as
// the picker), loaded the first time a ':' and two letters are typed.

export interface ShortcodeEntry {
  shortcode: string;
  emoji: string;
  /** Unicode's name for it ('grinning face with smiling eyes'), for screen readers. */
  name: string;
  /** Unicode order: the more common emoji come first among equal matches. */
  order: number;
}

/** One record of the data file (the fields this reads). */
interface EmojiRecord {
  emoji: string;
  annotation?: string;
  shortcodes?: string[];
  order?: number;
}

/** Every shortcode of the data, each with its emoji. */
export function shortcodeIndex(records: readonly EmojiRecord[]): ShortcodeEntry[] {
  const entries: ShortcodeEntry[] = [];
  for (const r of records) {
    for (const shortcode of r.shortcodes ?? []) {
      entries.push({ shortcode, emoji: r.emoji, name: r.annotation ?? shortcode, order: r.order ?? 0 });
    }
  }
  return entries;
}

/** The `:name` being typed just before the caret (two characters at least), or null. */
export function shortcodeQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|[\s([{"']):([a-z0-9_+-]{2,})$/i.exec(before);
  if (!m) return null;
  const query = m[2]!.toLowerCase();
  return { start: before.length - query.length - 1, query };
}

/**
 * The emoji whose shortcodes fit the query, each emoji once, at most `max`: shortcodes starting with it first
 * (shorter ones, then commoner emoji, first), then those with a word starting with it ('smi' finds
 * 'cat_smile').
 */
export function searchShortcodes(
  entries: readonly ShortcodeEntry[],
  query: string,
  max = 8,
): ShortcodeEntry[] {
  const q = query.toLowerCase();
  const rank = (e: ShortcodeEntry) =>
    e.shortcode.startsWith(q) ? 0 : e.shortcode.split(/[_-]/).some((w) => w.startsWith(q)) ? 1 : -1;
  const found = entries
    .map((e) => ({ e, r: rank(e) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || a.e.shortcode.length - b.e.shortcode.length || a.e.order - b.e.order);
  const out: ShortcodeEntry[] = [];
  const seen = new Set<string>();
  for (const { e } of found) {
    if (seen.has(e.emoji)) continue;
    seen.add(e.emoji);
    out.push(e);
    if (out.length === max) break;
  }
  return out;
}

/** The text with the `:name` being typed replaced by the emoji, and the caret after it. */
export function insertEmoji(
  text: string,
  at: { start: number; query: string },
  emoji: string,
): { text: string; caret: number } {
  const end = at.start + 1 + at.query.length;
  return { text: text.slice(0, at.start) + emoji + text.slice(end), caret: at.start + emoji.length };
}

/**
 * A shortcode typed out in full (':tada:' — the closing colon just typed) becomes its emoji; null when the
 * name is not a shortcode.
 */
export function completeShortcode(
  entries: readonly ShortcodeEntry[],
  text: string,
  caret: number,
): { text: string; caret: number } | null {
  if (text[caret - 1] !== ':') return null;
  const at = shortcodeQuery(text, caret - 1);
  if (!at) return null;
  const entry = entries.find((e) => e.shortcode === at.query);
  if (!entry) return null;
  return {
    text: text.slice(0, at.start) + entry.emoji + text.slice(caret),
    caret: at.start + entry.emoji.length,
  };
}

/** The text with an emoji put in at the caret (the picker's choice), and the caret after it. */
export function insertAtCaret(text: string, caret: number, emoji: string): { text: string; caret: number } {
  return { text: text.slice(0, caret) + emoji + text.slice(caret), caret: caret + emoji.length };
}

let loading: Promise<ShortcodeEntry[]> | null = null;

/** Fetches the data once; a failure (offline) lets the next query try again. */
export function loadShortcodes(): Promise<ShortcodeEntry[]> {
  loading ??= fetch(EMOJI_DATA_URL)
    .then((response) => {
      if (!response.ok) throw new Error(`emoji data: ${response.status}`);
      return response.json() as Promise<EmojiRecord[]>;
    })
    .then(shortcodeIndex)
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}
