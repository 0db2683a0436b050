import { type Message, pollFromInput } from '@parley/protocol';
import { dayText } from '../../../lib/text/locale-format';
import type { PendingMessage } from './room-messages';

// The rows the virtual list draws: a day heading ('Today', 'Yesterday', a short date with year) before the
// first message of each local day, then the messages; pending sends come last, drawn as the user's own.

export type MessageRow =
  | { kind: 'day'; key: string; label: string }
  | { kind: 'unread'; key: string }
  | { kind: 'message'; key: string; message: Message; pending: PendingMessage | null };

export interface Sender {
  id: number;
  name: string;
  username: string;
  avatar: string | null;
}

/**
 * A row's key survives the pending → confirmed swap (both key on the client_id), so the row is not remounted
 * and the list does not jump when the server's echo replaces a pending message.
 */
export const messageKey = (m: Pick<Message, 'id' | 'client_id'>): string =>
  m.client_id ? `c-${m.client_id}` : `m-${m.id}`;

// Rows are rebuilt for every change of a long list; a message's local day is worked out once per message object.
const dayKeys = new WeakMap<Message, string>();
function localDayKey(message: Message): string {
  let key = dayKeys.get(message);
  if (key === undefined) {
    const date = new Date(message.timestamp);
    key = `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;
    dayKeys.set(message, key);
  }
  return key;
}

/** A pending send shaped as a message from `me`, so one component draws both. */
export function pendingAsMessage(p: PendingMessage, me: Sender, chatroom: string): Message {
  return {
    id: 0,
    sender: me.id,
    sender_name: me.name,
    sender_username: me.username,
    sender_avatar: me.avatar,
    body: p.body,
    files: [],
    is_read: false,
    is_delivered: false,
    is_sent: false,
    is_error: p.status === 'error',
    edited_at: null,
    is_deleted: false,
    reply_to: p.reply_to ?? null,
    reactions: [],
    mentions: [],
    kind: 'user',
    timestamp: p.timestamp,
    chatroom,
    client_id: p.client_id,
    poll: p.poll ? pollFromInput(p.poll) : null,
  };
}

export function buildRows(
  messages: Message[],
  pending: PendingMessage[],
  me: Sender,
  chatroom: string,
  now: Date = new Date(),
  locale?: string,
): MessageRow[] {
  const rows: MessageRow[] = [];
  const seenDays = new Map<string, number>();
  let currentDay: string | null = null;
  const push = (message: Message, p: PendingMessage | null) => {
    const day = localDayKey(message);
    if (day !== currentDay) {
      currentDay = day;
      const n = (seenDays.get(day) ?? 0) + 1;
      seenDays.set(day, n);
      rows.push({
        kind: 'day',
        key: n === 1 ? `d-${day}` : `d-${day}-${n}`,
        label: dayText(message.timestamp, now, locale),
      });
    }
    rows.push({ kind: 'message', key: p ? `c-${p.client_id}` : messageKey(message), message, pending: p });
  };
  for (const m of messages) push(m, null);
  for (const p of pending) push(pendingAsMessage(p, me, chatroom), p);
  return rows;
}

export const UNREAD_ROW_KEY = 'unread';

/**
 * The 'New messages' divider before the first message the reader had not read when the room opened.
 * The same rows come back when that message is not among them.
 */
export function withUnreadDivider(rows: MessageRow[], firstUnreadId: number | null): MessageRow[] {
  if (firstUnreadId === null) return rows;
  const index = rows.findIndex((r) => r.kind === 'message' && r.message.id === firstUnreadId);
  if (index < 0) return rows;
  return [...rows.slice(0, index), { kind: 'unread', key: UNREAD_ROW_KEY }, ...rows.slice(index)];
}
