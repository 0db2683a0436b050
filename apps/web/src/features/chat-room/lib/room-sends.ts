import type { ClientFrame } from '@parley/protocol';
import type { OutboxEntry } from '../../../lib/offline/outbox';
import type { SendResult } from '../../../lib/realtime/chat-socket';
import type { PendingMessage } from './room-messages';

// What goes out on the room socket for a message, and what the screen says when it could not go out.

export const NOT_CONNECTED_TEXT = 'Not connected to chat. Trying to reconnect...';
export const SEND_FAILED_TEXT = 'Failed to send message. Please check your connection.';

/**
 * A pending message's frame: its text, when it carries files their ids (the body may then be empty), and when
 * it answers another message that message's id.
 */
export function messageFrame(p: {
  body: string;
  client_id: string;
  file_ids?: number[];
  reply_to?: { id: number };
}): ClientFrame {
  const frame: Extract<ClientFrame, { type: 'chat_message' }> = {
    type: 'chat_message',
    body: p.body,
    client_id: p.client_id,
  };
  if (p.file_ids?.length) frame.file_ids = p.file_ids;
  if (p.reply_to) frame.reply_to = p.reply_to.id;
  return frame;
}

/**
 * A send that did not go out: the banner's text, and whether to try to connect at once (there was no open
 * socket, rather than one that failed to write). Null when it went; undefined is a room with no socket.
 */
export function sendFailure(result: SendResult | undefined): { text: string; reconnect: boolean } | null {
  if (result === 'sent') return null;
  if (result === 'failed') return { text: SEND_FAILED_TEXT, reconnect: false };
  return { text: NOT_CONNECTED_TEXT, reconnect: true };
}

/** A message of the outbox as the room shows it: waiting for its files, for its turn, or refused. */
export function pendingFromOutbox(entry: OutboxEntry): PendingMessage {
  const waitsForFiles = Boolean(entry.files?.length) && !entry.file_ids;
  const pending: PendingMessage = {
    client_id: entry.client_id,
    body: entry.body,
    timestamp: entry.timestamp,
    status: entry.error ? 'error' : waitsForFiles ? 'uploading' : 'sending',
  };
  if (entry.error) pending.error = entry.error;
  if (entry.uploads) {
    pending.uploads = entry.uploads;
    pending.progress = waitsForFiles ? 0 : 1;
  }
  if (entry.file_ids) pending.file_ids = entry.file_ids;
  if (entry.reply_to) pending.reply_to = entry.reply_to;
  return pending;
}

/**
 * What the outbox must do after the room's pending list changed from `before` to `after`: messages that left
 * the list (echoed by the server, cancelled, their files refused) leave it; a refusal by the server is kept with
 * the message, and cleared when it is retried.
 */
export function outboxChanges(
  before: readonly PendingMessage[],
  after: readonly PendingMessage[],
): { remove: string[]; errors: { client_id: string; error: string | undefined }[] } {
  const remove: string[] = [];
  const errors: { client_id: string; error: string | undefined }[] = [];
  if (before === after) return { remove, errors };
  const now = new Map(after.map((p) => [p.client_id, p]));
  for (const p of before) {
    const next = now.get(p.client_id);
    if (!next) remove.push(p.client_id);
    else if (next.status !== p.status && (next.status === 'error' || p.status === 'error'))
      errors.push({
        client_id: p.client_id,
        error: next.status === 'error' ? (next.error ?? 'Not sent') : undefined,
      });
  }
  return { remove, errors };
}

/**
 * The frames an open sends for what waits, in the order typed: every message whose files are up (or that has
 * none) and that the server has not refused, each with the client_id it was first given.
 */
export const flushFrames = (pending: readonly PendingMessage[]): ClientFrame[] =>
  pending.filter((p) => p.status === 'sending').map(messageFrame);
