import { type ChatListItem, previewText, VOICE_TEXT } from '@parley/protocol';

// The chat list's words: the last message's preview, which names its files when it has no text.

/**
 * The preview of a chat's last message: its text, else '🎤 Voice message' / '📎 photo.png' / '📎 2 files'; null
 * when there is none.
 */
export function lastMessagePreview(
  chat: Pick<ChatListItem, 'last_message' | 'last_message_files'>,
): string | null {
  if (chat.last_message) return previewText(chat.last_message);
  const files = chat.last_message_files;
  if (files && files.count > 0) {
    if (files.kind === 'voice' && files.count === 1) return `🎤 ${VOICE_TEXT.voiceMessage}`;
    return files.count === 1 ? `📎 ${previewText(files.name || '1 file')}` : `📎 ${files.count} files`;
  }
  return null;
}
