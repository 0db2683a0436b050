import type { Db } from '../../src/db/database';
import type { Person } from '../../src/test-support/seed-people';
import type { Endpoint } from './server-process';
import type { Json } from './test-app';

// Groups and their members written straight into the database of server processes (hundreds of people join
// and leave without an API call each), and a chat's messages read back, from the database or through the API.

/** A group made through the API by `owner`, with `members` added straight in the database. */
export async function seedGroup(
  proc: Endpoint,
  db: Db,
  owner: Person,
  members: Person[],
  name = 'Load',
): Promise<string> {
  const res = await proc.post('/api/chats/group/new/', { group_name: name }, owner.token);
  if (res.status !== 200) throw new Error(`group: ${res.status} ${res.text}`);
  const chatId: string = res.body.chat_id;
  await addMembers(db, chatId, members);
  return chatId;
}

async function chatDbId(db: Db, chatId: string): Promise<number> {
  return (await db.selectFrom('chats').select('id').where('chat_id', '=', chatId).executeTakeFirstOrThrow())
    .id;
}

export async function addMembers(db: Db, chatId: string, members: Person[]): Promise<void> {
  if (members.length === 0) return;
  const id = await chatDbId(db, chatId);
  const joined_at = new Date().toISOString();
  await db
    .insertInto('chat_members')
    .values(members.map((m) => ({ chat_id: id, user_id: m.id, role: 'member' as const, joined_at })))
    .execute();
}

export async function removeMembers(db: Db, chatId: string, members: Person[]): Promise<void> {
  if (members.length === 0) return;
  const id = await chatDbId(db, chatId);
  await db
    .deleteFrom('chat_members')
    .where('chat_id', '=', id)
    .where(
      'user_id',
      'in',
      members.map((m) => m.id),
    )
    .execute();
}

/** Every message of a chat in id order, straight from the database. */
export async function storedMessages(db: Db, chatId: string) {
  const id = await chatDbId(db, chatId);
  return db
    .selectFrom('messages')
    .select(['id', 'sender_id', 'client_id', 'body'])
    .where('chat_id', '=', id)
    .where('kind', '=', 'user')
    .orderBy('id')
    .execute();
}

/** The whole history after `afterId` through the API, paging with ?after= (100 a page). */
export async function historyAfter(
  proc: Endpoint,
  token: string,
  chatId: string,
  afterId: number,
): Promise<Json[]> {
  const out: Json[] = [];
  let after = afterId;
  for (;;) {
    const res = await proc.get(`/api/chats/${chatId}/messages/?after=${after}&limit=100`, token);
    if (res.status !== 200) throw new Error(`history: ${res.status} ${res.text}`);
    const page = res.body as Json[];
    out.push(...page);
    if (page.length < 100) return out;
    after = page[page.length - 1].id;
  }
}
