import type { Message } from '@parley/protocol';
import { useT } from '../lib/i18n/i18n';
import { useBlockedPeople } from '../lib/queries/safety';

/**
 * Screen readers hear each new message from someone else in a list of messages (a room's, a thread's: the lists
 * themselves are not live regions), never one from someone the reader blocked: its text is folded away on
 * screen, and is not read out either.
 */
export function LatestAnnouncement({ messages, meId }: { messages: Message[]; meId: number }) {
  const t = useT();
  const blocked = useBlockedPeople().data?.results;
  const last = messages[messages.length - 1];
  // Until the list of blocked people has loaded, nobody is known not to be blocked: nothing is read out.
  const fromBlocked = !!last && (!blocked || blocked.some((p) => p.id === last.sender));
  let text = '';
  if (last && last.sender !== meId && last.kind === 'user' && !last.is_deleted && !fromBlocked) {
    text = last.body
      ? t('general.announce.said', { name: last.sender_name, body: last.body })
      : t('general.announce.sentFiles', { count: last.files.length, name: last.sender_name });
  }
  // One sentence, as a screen reader says it: the words around the name and text are the reader's language
  // already, and what people wrote is theirs, so nothing here is for a page translator.
  return (
    <p aria-live="polite" className="sr-only" translate="no">
      {text}
    </p>
  );
}
