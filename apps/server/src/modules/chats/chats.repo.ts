import { type ExpressionBuilder, type Selectable, sql, type Transaction } from 'kysely';
import type { Db } from '../../db/database';
import { inList, prepared } from '../../db/prepared';
import type { ChatsTable, Database } from '../../db/schema';

// The SQL of the chats module's tables, chats and chat_members (with channels.repo and mutes.repo, each for a
// job of its own; invites.repo has chat_invites). Member lists join users read-only in the same statement
// (DESIGN §3).
export type ChatRow = Selectable<ChatsTable>;
export type Executor = Db | Transaction<Database>;

export const findChatByPublicId = (db: Executor, chatId: string) =>
  db.selectFrom('chats').selectAll().where('chat_id', '=', chatId).executeTakeFirst();

export const chatsByIds = (db: Executor, chatDbIds: number[]) =>
  chatDbIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('chats').selectAll().where('id', 'in', chatDbIds).execute();

export const findChatByPrivateKey = (db: Executor, key: string) =>
  db.selectFrom('chats').selectAll().where('private_key', '=', key).executeTakeFirst();

export const findMembership = (db: Executor, chatDbId: number, userId: number) =>
  db
    .selectFrom('chat_members')
    .selectAll()
    .where('chat_id', '=', chatDbId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

export type Role = 'owner' | 'admin' | 'member';
/** A group's own fields, as stored (directory_words derived from name and description by the service). */
export type GroupFields = Partial<
  Pick<ChatRow, 'name' | 'description' | 'avatar' | 'visibility' | 'posting' | 'directory_words'>
>;

export async function insertChat(
  db: Executor,
  chat: { chat_id: string; is_private: number; private_key: string | null; name: string; now: string },
  group: GroupFields = {},
): Promise<number> {
  const row = await db
    .insertInto('chats')
    .values({
      chat_id: chat.chat_id,
      is_private: chat.is_private,
      private_key: chat.private_key,
      name: chat.name,
      ...group,
      created_at: chat.now,
      last_activity_at: chat.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertMember(
  db: Executor,
  m: { chat_id: number; user_id: number; role: Role; joined_at: string },
): Promise<void> {
  await db.insertInto('chat_members').values(m).execute();
}

/** Members with their user columns; a deleted account's row has user_id null and no user columns. */
export const membersOf = (db: Executor, chatDbIds: number[]) =>
  chatDbIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('chat_members as cm')
        .leftJoin('users as u', 'u.id', 'cm.user_id')
        .select([
          'cm.id as member_id',
          'cm.chat_id',
          'cm.user_id',
          'cm.role',
          'cm.joined_at',
          'cm.last_read_id',
          'cm.last_delivered_id',
          'u.username',
          'u.first_name',
          'u.last_name',
          'u.displayname',
          'u.avatar',
          'u.is_bot',
          'u.is_blue_verified',
          'u.last_seen',
          'u.online_status',
          'u.read_receipt',
        ])
        .where('cm.chat_id', 'in', chatDbIds)
        .orderBy('cm.id')
        .execute();
export type MemberRow = Awaited<ReturnType<typeof membersOf>>[number];

/** The chats a user belongs to, newest activity first, with that user's membership columns. */
export const chatsOfUser = (db: Db, userId: number) =>
  db
    .selectFrom('chat_members as cm')
    .innerJoin('chats as c', 'c.id', 'cm.chat_id')
    .selectAll('c')
    .select(['cm.role', 'cm.last_read_id', 'cm.cleared_before_id', 'cm.muted_until'])
    .where('cm.user_id', '=', userId)
    .orderBy('c.last_activity_at', 'desc')
    .orderBy('c.id', 'desc')
    .execute();

/** Everyone who shares at least one chat with this user (the user left out, deleted accounts too), once each. */
export async function contactIdsOf(db: Executor, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('chat_members as mine')
    .innerJoin('chat_members as other', 'other.chat_id', 'mine.chat_id')
    .select('other.user_id')
    .distinct()
    .where('mine.user_id', '=', userId)
    .where('other.user_id', 'is not', null)
    .where('other.user_id', '!=', userId)
    .execute();
  return rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id]));
}

/** Sets each chat's last activity to its given time, in one statement (of a few texts: inList). */
export async function touchChats(db: Executor, at: Map<number, string>): Promise<void> {
  const pairs = inList([...at]);
  const byId = sql.join(
    pairs.map(([id, time]) => sql`WHEN ${id} THEN ${time}`),
    sql` `,
  );
  await db
    .updateTable('chats')
    .set({ last_activity_at: sql<string>`CASE id ${byId} END` })
    .where(
      'id',
      'in',
      pairs.map(([id]) => id),
    )
    .execute();
}

/** The user ids of a group's owner and admins. */
export async function adminIdsOf(db: Executor, chatDbId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('chat_members')
    .select('user_id')
    .where('chat_id', '=', chatDbId)
    .where('role', 'in', ['owner', 'admin'])
    .execute();
  return rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id]));
}

/** Every member's user id of each chat (deleted accounts left out). */
export async function memberIdsOf(db: Executor, chatDbIds: number[]): Promise<Map<number, number[]>> {
  const rows = await db
    .selectFrom('chat_members')
    .select(['chat_id', 'user_id'])
    .where('chat_id', 'in', inList(chatDbIds))
    .execute();
  const byChat = new Map<number, number[]>(chatDbIds.map((id) => [id, []]));
  for (const r of rows) if (r.user_id !== null) byChat.get(r.chat_id)?.push(r.user_id);
  return byChat;
}

/** Each chat's members by lower-cased username (deleted accounts left out), to find whom a body mentions. */
export async function memberNamesOf(
  db: Executor,
  chatDbIds: number[],
): Promise<Map<number, Map<string, number>>> {
  const rows = await db
    .selectFrom('chat_members as cm')
    .innerJoin('users as u', 'u.id', 'cm.user_id')
    .select(['cm.chat_id', 'cm.user_id', 'u.username'])
    .where('cm.chat_id', 'in', inList(chatDbIds))
    .execute();
  const byChat = new Map<number, Map<string, number>>();
  for (const r of rows) {
    if (r.user_id === null) continue;
    const names = byChat.get(r.chat_id) ?? new Map<string, number>();
    byChat.set(r.chat_id, names);
    names.set(r.username.toLowerCase(), r.user_id);
  }
  return byChat;
}

/** max(column, value) that reads the same in SQLite and PostgreSQL. */
const greatest = (
  eb: ExpressionBuilder<Database, 'chat_members'>,
  column: 'last_read_id' | 'last_delivered_id',
  value: number,
) => eb.case().when(column, '<', value).then(value).else(eb.ref(column)).end();

/** Moves a member's read (and so delivered) mark forward, never back. */
export async function advanceRead(
  db: Executor,
  chatDbId: number,
  userId: number,
  upTo: number,
): Promise<void> {
  await db
    .updateTable('chat_members')
    .set((eb) => ({
      last_read_id: greatest(eb, 'last_read_id', upTo),
      last_delivered_id: greatest(eb, 'last_delivered_id', upTo),
    }))
    .where('chat_id', '=', chatDbId)
    .where('user_id', '=', userId)
    .execute();
}

export async function advanceDelivered(
  db: Executor,
  chatDbId: number,
  userId: number,
  upTo: number,
): Promise<void> {
  await db
    .updateTable('chat_members')
    .set((eb) => ({ last_delivered_id: greatest(eb, 'last_delivered_id', upTo) }))
    .where('chat_id', '=', chatDbId)
    .where('user_id', '=', userId)
    .execute();
}

export async function updateChat(db: Executor, chatDbId: number, changes: GroupFields): Promise<void> {
  await db.updateTable('chats').set(changes).where('id', '=', chatDbId).execute();
}

export async function deleteMember(db: Executor, chatDbId: number, userId: number): Promise<void> {
  await db.deleteFrom('chat_members').where('chat_id', '=', chatDbId).where('user_id', '=', userId).execute();
}

export async function setRole(db: Executor, memberId: number, role: Role): Promise<void> {
  await db.updateTable('chat_members').set({ role }).where('id', '=', memberId).execute();
}

export async function deleteChat(db: Executor, chatDbId: number): Promise<void> {
  await db.deleteFrom('chats').where('id', '=', chatDbId).execute();
}

/** Hides messages up to `upTo` for this member, and counts them read. */
export async function clearFor(db: Executor, chatDbId: number, userId: number, upTo: number): Promise<void> {
  await db
    .updateTable('chat_members')
    .set({ cleared_before_id: upTo, last_read_id: upTo })
    .where('chat_id', '=', chatDbId)
    .where('user_id', '=', userId)
    .execute();
}

/** A chat by its public id with this user's membership, in one query; undefined for no chat or no member. */
export async function findChatWithMembership(db: Executor, chatId: string, userId: number) {
  const row = await db
    .selectFrom('chats as c')
    .innerJoin('chat_members as cm', (j) => j.onRef('cm.chat_id', '=', 'c.id').on('cm.user_id', '=', userId))
    .selectAll('c')
    .select([
      'cm.id as m_id',
      'cm.user_id as m_user_id',
      'cm.role as m_role',
      'cm.joined_at as m_joined_at',
      'cm.last_read_id as m_last_read_id',
      'cm.last_delivered_id as m_last_delivered_id',
      'cm.cleared_before_id as m_cleared_before_id',
      'cm.muted_until as m_muted_until',
    ])
    .where('c.chat_id', '=', chatId)
    .executeTakeFirst();
  if (!row) return undefined;
  const chat: ChatRow = {
    id: row.id,
    chat_id: row.chat_id,
    is_private: row.is_private,
    private_key: row.private_key,
    name: row.name,
    description: row.description,
    avatar: row.avatar,
    visibility: row.visibility,
    posting: row.posting,
    directory_words: row.directory_words,
    member_count: row.member_count,
    created_at: row.created_at,
    last_activity_at: row.last_activity_at,
  };
  const member = {
    id: row.m_id,
    chat_id: row.id,
    user_id: row.m_user_id,
    role: row.m_role,
    joined_at: row.m_joined_at,
    last_read_id: row.m_last_read_id,
    last_delivered_id: row.m_last_delivered_id,
    cleared_before_id: row.m_cleared_before_id,
    muted_until: row.m_muted_until,
  };
  return { chat, member };
}

/**
 * What the history page needs of a chat's members (deleted accounts left out): read and delivery marks for the
 * ticks, the columns a sender shows, and each one's cleared mark (the reader's bounds their page). Narrower
 * than membersOf, and cheaper for it; prepared once.
 */
const pageMembers = prepared((db, p: { chat: number }) =>
  db
    .selectFrom('chat_members as cm')
    .innerJoin('users as u', 'u.id', 'cm.user_id')
    .select([
      'cm.user_id',
      'cm.last_read_id',
      'cm.last_delivered_id',
      'cm.cleared_before_id',
      'u.read_receipt',
      'u.username',
      'u.first_name',
      'u.last_name',
      'u.displayname',
      'u.avatar',
      'u.is_bot',
    ])
    .where('cm.chat_id', '=', p.chat),
);
export const pageMembersOf = (db: Executor, chatDbId: number) => pageMembers(db, { chat: chatDbId });
export type PageMember = Awaited<ReturnType<typeof pageMembersOf>>[number];
