import type { ClientFrame, PollInput } from '@parley/protocol';
import type { PendingMessage } from '../messages/pending-message';
import type { OutboxEntry } from './outbox';

// What the outbox's messages become, shared by the room and a thread's pane: the frame that sends one, the
// pending message drawn for one, and what the outbox must do when a pending list changes.

/** What a frame is built from: a pending message, or an entry of the outbox. */
export interface Sendable {
  body: string;
  client_id: string;
  file_ids?: number[];
  reply_to?: { id: number };
  thread_root?: number;
  also_in_chat?: boolean;
  poll?: PollInput;
}

/**
 * A message's frame: its text, when it carries files their ids (the body may then be empty), when it answers
 * another message that message's id, for a thread's reply its root (and whether it goes to the chat too), and a
 * poll (the body may then be empty too).
 */
export function outboxFrame(p: Sendable): ClientFrame {
  const frame: Extract<ClientFrame, { type: 'chat_message' }> = {
    type: 'chat_message',
    body: p.body,
    client_id: p.client_id,
  };
  if (p.thread_root != null) {
    frame.thread_root = p.thread_root;
    if (p.also_in_chat) frame.also_in_chat = true;
  }
  if (p.file_ids?.length) frame.file_ids = p.file_ids;
  if (p.reply_to) frame.reply_to = p.reply_to.id;
  if (p.poll) frame.poll = p.poll;
  return frame;
}

/** Whether an entry's files are up (or it has none): it can go on the socket as it is. */
export const filesReady = (entry: Pick<OutboxEntry, 'files' | 'file_ids'>): boolean =>
  !entry.files?.length || Boolean(entry.file_ids);

/** A message of the outbox as a pending list shows it: waiting for its files, for its turn, or refused. */
export function pendingFromOutbox(entry: OutboxEntry): PendingMessage {
  const waitsForFiles = !filesReady(entry);
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
  if (entry.poll) pending.poll = entry.poll;
  return pending;
}

/**
 * What the outbox must do after a pending list changed from `before` to `after`: messages that left the list
 * (echoed by the server, cancelled, their files refused) leave it; a refusal by the server is kept with the
 * message, and cleared when it is retried.
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
