import { type ChatListItem, previewText } from '@parley/protocol';
import { type MessageId, type MessageValues, t } from '../../../lib/i18n/i18n';
import { systemLineOf } from '../../../lib/text/system-lines';

// The chat list's words: the last message's preview, which names its files when it has no text.

type Tr = (id: MessageId, values?: MessageValues) => string;

export interface PreviewParts {
  /** Parley's words before it ('📎 '), if any. */
  prefix: string;
  text: string;
  /** Whether `text` is what a person wrote (the message, a file's name): marked translate="no". */
  written: boolean;
}

/**
 * The preview of a chat's last message: its text, else '🎤 Voice message' / '📎 photo.png' / '📎 2 files'; null
 * when there is none.
 */
export function lastMessagePreviewParts(
  chat: Pick<ChatListItem, 'last_message' | 'last_message_files' | 'last_message_kind'>,
  tr: Tr = t,
): PreviewParts | null {
  // What Parley wrote reads in the reader's language; a system line it does not know stays as sent.
  if (chat.last_message_kind === 'deleted')
    return { prefix: '', text: tr('room.msg.deleted'), written: false };
  const line =
    chat.last_message_kind === 'system' && chat.last_message ? systemLineOf(chat.last_message) : null;
  if (line) return { prefix: '', text: previewText(tr(line.id, line.values)), written: false };
  if (chat.last_message) return { prefix: '', text: previewText(chat.last_message), written: true };
  const files = chat.last_message_files;
  if (files && files.count > 0) {
    if (files.kind === 'voice' && files.count === 1)
      return { prefix: '', text: tr('browse.chats.voiceMessage'), written: false };
    if (files.count === 1 && files.name)
      return { prefix: '📎 ', text: previewText(files.name), written: true };
    return { prefix: '', text: tr('browse.chats.files', { count: files.count }), written: false };
  }
  return null;
}

/** The preview as one line of text. */
export function lastMessagePreview(
  chat: Pick<ChatListItem, 'last_message' | 'last_message_files' | 'last_message_kind'>,
  tr: Tr = t,
): string | null {
  const parts = lastMessagePreviewParts(chat, tr);
  return parts && parts.prefix + parts.text;
}
