import type { Message } from '@parley/protocol';
import { useBlockedPeople } from '../lib/queries/safety';

/**
 * Screen readers hear each new message from someone else in a list of messages (a room's, a thread's: the lists
 * themselves are not live regions), never one from someone the reader blocked: its text is folded away on
 * screen, and is not read out either.
 */
export function LatestAnnouncement({ messages, meId }: { messages: Message[]; meId: number }) {
  const blocked = useBlockedPeople().data?.results;
  const last = messages[messages.length - 1];
  // Until the list of blocked people has loaded, nobody is known not to be blocked: nothing is read out.
  const fromBlocked = !!last && (!blocked || blocked.some((p) => p.id === last.sender));
  const text =
    last && last.sender !== meId && last.kind === 'user' && !last.is_deleted && !fromBlocked
      ? last.body
        ? `${last.sender_name}: ${last.body}`
        : `${last.sender_name} sent ${last.files.length === 1 ? 'a file' : `${last.files.length} files`}`
      : '';
  return (
    <p aria-live="polite" className="sr-only">
      {text}
    </p>
  );
}
