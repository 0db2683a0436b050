import type { Message } from '@parley/protocol';
import type { ReactNode } from 'react';
import { useT } from '../lib/i18n/i18n';
import { SLOT, Slotted } from '../lib/i18n/slotted';
import { useBlockedPeople } from '../lib/queries/safety';

/** Where the message's text goes in 'name: text', told apart from the name's place (SLOT). */
const BODY_SLOT = '\u2064';

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
  let text: ReactNode = null;
  if (last && last.sender !== meId && last.kind === 'user' && !last.is_deleted && !fromBlocked) {
    // What people wrote (the name, the text) is theirs: only the sentence around it is the reader's language.
    const name = <span translate="no">{last.sender_name}</span>;
    if (last.body) {
      const body = <span translate="no">{last.body}</span>;
      const withBody = (piece: string) => <Slotted text={piece.replace(BODY_SLOT, SLOT)}>{body}</Slotted>;
      const [before = '', after = ''] = t('general.announce.said', { name: SLOT, body: BODY_SLOT }).split(
        SLOT,
      );
      text = (
        <>
          {before.includes(BODY_SLOT) ? withBody(before) : before}
          {name}
          {after.includes(BODY_SLOT) ? withBody(after) : after}
        </>
      );
    } else {
      text = (
        <Slotted text={t('general.announce.sentFiles', { count: last.files.length, name: SLOT })}>
          {name}
        </Slotted>
      );
    }
  }
  return (
    <p aria-live="polite" className="sr-only">
      {text}
    </p>
  );
}
