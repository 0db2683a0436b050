import { bodyOrPoll, DELETED_MESSAGE_TEXT, type Message } from '@parley/protocol';

/** A message in a line: its text, or what stands for it (deleted, a poll's question, files alone). */
export function messageExcerpt(message: Pick<Message, 'is_deleted' | 'body' | 'files' | 'poll'>): string {
  if (message.is_deleted) return DELETED_MESSAGE_TEXT;
  const text = bodyOrPoll(message);
  if (text) return text;
  return message.files.length === 1 ? 'A file' : `${message.files.length} files`;
}
