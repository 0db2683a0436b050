import { inList } from '../../db/prepared';
import type { Executor } from './chats.repo';

// The SQL of members' mutes (chat_members.muted_until), beside chats.repo, which owns the table.

/** Sets (or, with null, lifts) a member's mute of a chat. */
export async function setMutedUntil(
  db: Executor,
  chatDbId: number,
  userId: number,
  until: string | null,
): Promise<void> {
  await db
    .updateTable('chat_members')
    .set({ muted_until: until })
    .where('chat_id', '=', chatDbId)
    .where('user_id', '=', userId)
    .execute();
}

/** The members of each chat whose mute lasts past `now`. */
export async function mutedMembersOf(
  db: Executor,
  chatDbIds: number[],
  now: string,
): Promise<Map<number, Set<number>>> {
  const byChat = new Map<number, Set<number>>();
  if (chatDbIds.length === 0) return byChat;
  const rows = await db
    .selectFrom('chat_members')
    .select(['chat_id', 'user_id'])
    .where('chat_id', 'in', inList(chatDbIds))
    .where('muted_until', '>', now)
    .execute();
  for (const r of rows) {
    if (r.user_id === null) continue;
    const set = byChat.get(r.chat_id) ?? new Set<number>();
    set.add(r.user_id);
    byChat.set(r.chat_id, set);
  }
  return byChat;
}
