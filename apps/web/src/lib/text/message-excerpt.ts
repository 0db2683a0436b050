import { bodyOrPoll, type Message } from '@parley/protocol';
import { type MessageId, type MessageValues, t } from '../i18n/i18n';

type Excerpted = Pick<Message, 'is_deleted' | 'body' | 'files' | 'poll'>;

/**
 * A message in a line: its text, or what stands for it (deleted, a poll's question, files alone). `tr` is a
 * component's useT(), so the line follows a change of language.
 */
export function messageExcerpt(
  message: Excerpted,
  tr: (id: MessageId, values?: MessageValues) => string = t,
): string {
  if (message.is_deleted) return tr('room.msg.deleted');
  const text = bodyOrPoll(message);
  if (text) return text;
  const count = message.files.length;
  return count === 1 ? tr('browse.excerpt.oneFile') : tr('browse.excerpt.files', { count });
}

/** Whether the excerpt is what a person wrote (its text, a poll's question), to be marked translate="no". */
export const excerptIsWritten = (message: Excerpted): boolean => !message.is_deleted && !!bodyOrPoll(message);
