import { type ChatListItem, previewText } from '@parley/protocol';

// The chat list's words: counts in the singular for one (SPEC's 'N chats' / 'N members' read '1 chats'), and
// the last message's preview, which names its files when it has no text.

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const chatCountText = (n: number) => counted(n, 'chat', 'chats');
export const memberCountText = (n: number) => counted(n, 'member', 'members');

/** The preview of a chat's last message: its text, else '📎 photo.png' / '📎 2 files'; null when there is none. */
export function lastMessagePreview(
  chat: Pick<ChatListItem, 'last_message' | 'last_message_files'>,
): string | null {
  if (chat.last_message) return previewText(chat.last_message);
  const files = chat.last_message_files;
  if (files && files.count > 0) {
    return files.count === 1 ? `📎 ${previewText(files.name || '1 file')}` : `📎 ${files.count} files`;
  }
  return null;
}
