// Unsent text per chat and per account, kept in localStorage so it survives leaving the room and a
// reload. The key holds the user id, so another account signed in on the same browser never sees it.

const PREFIX = 'parley:draft:';

export const draftKey = (userId: number, chatId: string) => `${PREFIX}${userId}:${chatId}`;

export function readDraft(storage: Storage, userId: number, chatId: string): string {
  try {
    return storage.getItem(draftKey(userId, chatId)) ?? '';
  } catch {
    return '';
  }
}

/** Keeps `text` as the draft; blank text removes it (a sent message clears its draft this way). */
export function writeDraft(storage: Storage, userId: number, chatId: string, text: string): void {
  try {
    if (text.trim()) storage.setItem(draftKey(userId, chatId), text);
    else storage.removeItem(draftKey(userId, chatId));
  } catch {
    // Storage full or disabled: the draft lives only as long as the room.
  }
}
