import { inList, prepared } from '../../db/prepared';
import type { Executor } from './chats.repo';

// The SQL of public channels and announcement channels (the chats and chat_members tables, which chats.repo
// owns): the directory's pages and who may post where posting is for admins.

/**
 * For the chats among these that are announcement channels, who may post in each: its owner and admins. A chat
 * open to everyone has no entry. Read inside the writer's transaction, beside the members.
 */
export async function restrictedPostersOf(
  db: Executor,
  chatDbIds: number[],
): Promise<Map<number, Set<number>>> {
  const rows = await db
    .selectFrom('chats as c')
    .leftJoin('chat_members as cm', (j) =>
      j.onRef('cm.chat_id', '=', 'c.id').on('cm.role', 'in', ['owner', 'admin']),
    )
    .select(['c.id', 'cm.user_id'])
    .where('c.id', 'in', inList(chatDbIds))
    .where('c.posting', '=', 'admins')
    .execute();
  const byChat = new Map<number, Set<number>>();
  for (const r of rows) {
    const posters = byChat.get(r.id) ?? new Set<number>();
    if (r.user_id !== null) posters.add(r.user_id);
    byChat.set(r.id, posters);
  }
  return byChat;
}

interface DirectoryParams {
  offset: number;
  limit: number;
  /** The LIKE patterns of the words, `% word%`, in slots w0, w1, … */
  [word: `w${number}`]: string;
}

/** The directory's statement for `words` words, built and compiled once (db/prepared.ts): one per word count. */
const directoryFor = (words: number) =>
  prepared((db, p: DirectoryParams) => {
    let query = db
      .selectFrom('chats as c')
      .select([
        'c.id',
        'c.chat_id',
        'c.name',
        'c.description',
        'c.avatar',
        'c.last_activity_at',
        'c.member_count',
      ])
      .where('c.visibility', '=', 'public')
      .where('c.is_private', '=', 0);
    for (let i = 0; i < words; i++) query = query.where('c.directory_words', 'like', p[`w${i}`] as string);
    return query.orderBy('c.member_count', 'desc').orderBy('c.id', 'desc').limit(p.limit).offset(p.offset);
  });
// A query holds at most 50 words (100 characters, each word followed by a space), so at most 51 statements.
const directoryStatements = new Map<number, ReturnType<typeof directoryFor>>();

/**
 * A page of the directory: public groups whose folded words start with each of `words`, most members first
 * (then the newest group). The same for everyone (whether the reader is in each comes from `chatsOf`). The order
 * is chats_directory's (visibility, member_count, id): member_count is kept by the database's triggers on
 * chat_members.
 */
export function channelsPage(db: Executor, q: { words: string[]; offset: number; limit: number }) {
  let statement = directoryStatements.get(q.words.length);
  if (!statement) {
    statement = directoryFor(q.words.length);
    directoryStatements.set(q.words.length, statement);
  }
  const params: DirectoryParams = { offset: q.offset, limit: q.limit };
  // The words are letters and digits only (directoryQueryWords): nothing in them is special to LIKE.
  for (const [i, word] of q.words.entries()) params[`w${i}`] = `% ${word}%`;
  return statement(db, params);
}
export type DirectoryRow = Awaited<ReturnType<typeof channelsPage>>[number];

const chatsOfStatement = prepared((db, p: { userId: number }) =>
  db.selectFrom('chat_members').select('chat_id').where('user_id', '=', p.userId),
);
/** The chats (row ids) `userId` is a member of, on chat_members_user: a directory page's `is_member`. */
export const chatsOf = (db: Executor, userId: number) => chatsOfStatement(db, { userId });
