import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Executor, messageColumns } from './messages.repo';

// The SQL of changes to stored messages (message-changes.ts): the row lock, reactions, edits and deletion.

/**
 * A message read for a change inside `trx`, its row locked until the transaction ends (a no-op UPDATE, which
 * locks in PostgreSQL and SQLite alike): edits, deletions and reactions of one message run one after another,
 * so a deletion cannot miss a version or reaction another transaction is adding, nor two reactions both pass
 * the emoji limit.
 */
export const lockedMessage = (trx: Transaction<Database>, id: number) =>
  trx
    .updateTable('messages')
    .set((eb) => ({ deleted_at: eb.ref('deleted_at') }))
    .where('id', '=', id)
    .returning(messageColumns)
    .executeTakeFirst();

const countReactions = (db: Executor, messageId: number, by: number) =>
  db
    .updateTable('messages')
    .set((eb) => ({ reaction_count: eb('reaction_count', '+', by) }))
    .where('id', '=', messageId)
    .execute();

/** Adds one person's reaction; false when it was there already. */
export async function addReaction(
  db: Executor,
  r: { message_id: number; user_id: number; emoji: string; created_at: string },
): Promise<boolean> {
  const added = await db
    .insertInto('message_reactions')
    .values(r)
    .onConflict((oc) => oc.columns(['message_id', 'user_id', 'emoji']).doNothing())
    .returning('id')
    .execute();
  if (added.length > 0) await countReactions(db, r.message_id, 1);
  return added.length > 0;
}

/** Removes one person's reaction; false when there was none. */
export async function removeReaction(
  db: Executor,
  r: { message_id: number; user_id: number; emoji: string },
): Promise<boolean> {
  const removed = await db
    .deleteFrom('message_reactions')
    .where('message_id', '=', r.message_id)
    .where('user_id', '=', r.user_id)
    .where('emoji', '=', r.emoji)
    .returning('id')
    .execute();
  if (removed.length > 0) await countReactions(db, r.message_id, -1);
  return removed.length > 0;
}

/** The different emoji a message carries. */
export async function emojiOf(db: Executor, messageId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('message_reactions')
    .select('emoji')
    .distinct()
    .where('message_id', '=', messageId)
    .execute();
  return rows.map((r) => r.emoji);
}

/** Replaces a message's text, keeping the text it had as an earlier version. */
export async function replaceBody(
  db: Executor,
  m: { id: number; previous: string; body: string; mentions: string; at: string; dropPreview: boolean },
): Promise<void> {
  await db
    .insertInto('message_edits')
    .values({ message_id: m.id, body: m.previous, edited_at: m.at })
    .execute();
  await db
    .updateTable('messages')
    .set({
      body: m.body,
      mentions: m.mentions,
      edited_at: m.at,
      // The preview of a link the text no longer starts with goes; the new link's is fetched after.
      ...(m.dropPreview ? { link_preview: null, link_preview_id: null } : {}),
    })
    .where('id', '=', m.id)
    .execute();
}

/** Earlier versions of a message, oldest first. */
export const editsOf = (db: Executor, messageId: number) =>
  db
    .selectFrom('message_edits')
    .select(['body', 'edited_at'])
    .where('message_id', '=', messageId)
    .orderBy('id')
    .execute();

/** Deletes a message for everyone: its text, earlier versions and reactions are erased, the row stays as a marker. */
export async function eraseMessage(db: Executor, id: number, at: string): Promise<void> {
  await db.deleteFrom('message_edits').where('message_id', '=', id).execute();
  await db.deleteFrom('message_reactions').where('message_id', '=', id).execute();
  await db
    .updateTable('messages')
    .set({
      body: '',
      mentions: '[]',
      deleted_at: at,
      edited_at: null,
      reaction_count: 0,
      link_preview: null,
      link_preview_id: null,
    })
    .where('id', '=', id)
    .execute();
}

/** What deciding a message's link preview needs of it. */
export const previewState = (db: Executor, id: number) =>
  db
    .selectFrom('messages')
    .select(['chat_id', 'sender_id', 'body', 'deleted_at', 'no_preview', 'link_preview'])
    .where('id', '=', id)
    .executeTakeFirst();

/**
 * Shows a preview under a message, unless its text changed since it was read (an edit's own refresh then
 * decides), it was deleted, or its sender asked for none. Whether it was set.
 */
export async function setLinkPreview(
  db: Executor,
  m: { id: number; body: string; preview: string; previewId: number },
): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set({ link_preview: m.preview, link_preview_id: m.previewId })
    .where('id', '=', m.id)
    .where('body', '=', m.body)
    .where('no_preview', '=', 0)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** No preview for this message from now on (its sender removed it). */
export async function removeLinkPreview(db: Executor, id: number): Promise<void> {
  await db
    .updateTable('messages')
    .set({ no_preview: 1, link_preview: null, link_preview_id: null })
    .where('id', '=', id)
    .execute();
}
