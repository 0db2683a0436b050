import type { Message } from '@parley/protocol';
import { undeliveredFromOthers, unreadFromOthers } from './room-messages';

// Which of others' messages this client reports read or delivered, and when (SPEC §4 ticks).

/** The ids already queued on the current connection; cleared on every open so a reconnect reports again. */
export interface ReportedAcks {
  read: Set<number>;
  delivered: Set<number>;
}

/**
 * The acknowledgements due now, marked in `reported` so none goes twice on one connection. While the chat is
 * read (`reading`: on screen, its window focused) others' unread messages are read (which counts as delivered:
 * the server's read moves both marks); otherwise they are only delivered, and reading again reads what is still
 * unread.
 */
export function dueAcks(
  messages: Message[],
  me: number,
  reading: boolean,
  reported: ReportedAcks,
): { read: number[]; delivered: number[] } {
  if (reading) {
    const read = unreadFromOthers(messages, me, reported.read);
    for (const id of read) {
      reported.read.add(id);
      reported.delivered.add(id);
    }
    return { read, delivered: [] };
  }
  const delivered = undeliveredFromOthers(messages, me, reported.delivered);
  for (const id of delivered) reported.delivered.add(id);
  return { read: [], delivered };
}
