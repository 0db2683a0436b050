import { DELETED_MESSAGE_TEXT, type Message } from '@parley/protocol';

/** A message in a line: its text, or what stands for it (deleted, files alone). */
export function messageExcerpt(message: Pick<Message, 'is_deleted' | 'body' | 'files'>): string {
  if (message.is_deleted) return DELETED_MESSAGE_TEXT;
  if (message.body) return message.body;
  return message.files.length === 1 ? 'A file' : `${message.files.length} files`;
}
