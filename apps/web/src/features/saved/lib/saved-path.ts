import type { SavedMessage } from '@parley/protocol';
import { chatPath, threadPath } from '../../../lib/text/chat-path';

/**
 * Where a saved message is read: its room, jumping to it (?message=), or, for a reply kept inside a thread,
 * that thread.
 */
export function savedMessagePath(entry: SavedMessage): string {
  const chat = { chat_id: entry.chat_id, is_private: entry.is_private };
  const { message } = entry;
  if (message.thread_root != null && !message.also_in_chat) return threadPath(chat, message.thread_root);
  return `${chatPath(chat)}?${new URLSearchParams({ message: String(message.id) })}`;
}
