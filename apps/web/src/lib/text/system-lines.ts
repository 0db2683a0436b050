import type { MessageId } from '../i18n/i18n';
import { knowServerTexts, patternOf } from '../i18n/server-texts';

// The system lines the server writes into a chat ('Ada added Grace'): it stores them in English, filled in with
// the names of the people concerned, and gives no kind or values with them. Each known line is matched here and
// drawn from the catalog in the reader's language, with the names as they were written.

/** The server's lines, as it writes them (modules/chats, modules/pins), and their catalog ids; first match wins. */
export const SYSTEM_LINES: ReadonlyArray<readonly [english: string, id: MessageId]> = [
  ['{actor} removed a member', 'browse.system.removedSomeone'],
  ['{actor} renamed the group to {name}', 'browse.system.renamed'],
  ['{name} pinned a message', 'browse.system.pinned'],
  ['{actor} added {name}', 'browse.system.added'],
  ['{actor} removed {name}', 'browse.system.removed'],
  ['{name} joined', 'browse.system.joined'],
  ['{name} left', 'browse.system.left'],
];

// Elsewhere (a notice, a preview) localText finds them too.
knowServerTexts(SYSTEM_LINES);

const MATCHERS = SYSTEM_LINES.map(([english, id]) => ({ id, ...patternOf(english) }));

/** A system line's catalog id and the names in it; null for a line the app does not know (shown as sent). */
export function systemLineOf(body: string): { id: MessageId; values: Record<string, string> } | null {
  for (const m of MATCHERS) {
    const match = m.pattern.exec(body);
    if (match)
      return { id: m.id, values: Object.fromEntries(m.names.map((n, i) => [n, match[i + 1] ?? ''])) };
  }
  return null;
}
