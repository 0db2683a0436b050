import { randomBytes } from 'node:crypto';
import { directoryWords } from '@parley/protocol';
import { type Db, insertInBatches } from '@parley/server';
import { pick, type Random, seededRandom } from '../search/words';

// The directory's and the threads' data for the channels scenario, written as seed.ts writes history (multi-row
// INSERTs in the seed's one transaction): public channels whose member counts fall off as communities' do, named
// and described in words the directory matches by prefix, and one thread of many replies under a root message.

/** Typed into the directory's search: the start of a word in about a quarter of the channels. */
export const DIRECTORY_QUERY = 'garden';

const TOPICS = [
  'Gardening',
  'Photography',
  'Rust',
  'Climbing',
  'Jazz',
  'Café',
  'Chess',
  'Cycling',
  'Astronomy',
  'Baking',
  'Kubernetes',
  'Birdwatching',
  'Pottery',
  'Running',
  'Typescript',
  'Woodworking',
  'Knitting',
  'Hiking',
  'Linux',
  'Film',
];
const KINDS = ['club', 'lounge', 'help', 'news', 'meetup', 'builders', 'circle', 'corner'];
const WORDS = `weekly tips questions answers beginners experts share projects photos events local friendly
 community résumé naïve déjà gardens seeds tools release notes help wanted show tell monthly meetups
 open source learning practice reviews guides tutorials travel coffee crème trails routes night sky telescopes
 sourdough bread recipes clusters deploys birds pots glaze races shoes types compilers joints yarn patterns`
  .split(/\s+/)
  .filter(Boolean);

/** Members of the channel at `rank` (0: the biggest) of `people`: a long tail, as communities have. */
const memberCount = (rank: number, people: number) =>
  Math.max(2, Math.min(people, Math.round(people / (rank + 1) ** 0.9)));

/** Shuffles in place (Fisher–Yates). */
function shuffle<T>(random: Random, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}

/**
 * `count` public channels, each with a name, a description of a dozen words and members drawn from `userIds`
 * (a consecutive run from a random start, so each person is in a few dozen); the biggest has everyone.
 */
export async function seedChannels(db: Db, userIds: number[], count: number): Promise<void> {
  const random = seededRandom(1_000 + count);
  const day = 86_400_000;
  const ranks = shuffle(
    random,
    Array.from({ length: count }, (_, i) => i),
  );
  const channels = ranks.map((rank, i) => {
    const name = `${pick(random, TOPICS)} ${pick(random, KINDS)} ${i + 1}`;
    const description = Array.from({ length: 8 + Math.floor(random() * 8) }, () => pick(random, WORDS)).join(
      ' ',
    );
    const created = new Date(Date.now() - (30 + random() * 700) * day);
    return {
      members: memberCount(rank, userIds.length),
      start: Math.floor(random() * userIds.length),
      row: {
        chat_id: randomBytes(9).toString('base64url'),
        is_private: 0,
        private_key: null,
        name,
        description,
        visibility: 'public' as const,
        directory_words: directoryWords(name, description),
        created_at: created.toISOString(),
        last_activity_at: new Date(created.getTime() + random() * 29 * day).toISOString(),
      },
    };
  });
  await insertInBatches(channels, (batch) =>
    db
      .insertInto('chats')
      .values(batch.map((c) => c.row))
      .execute(),
  );
  const ids = await db
    .selectFrom('chats')
    .select(['id', 'chat_id'])
    .where('visibility', '=', 'public')
    .execute();
  const idOf = new Map(ids.map((c) => [c.chat_id, c.id]));
  const members = channels.flatMap((c) =>
    Array.from({ length: c.members }, (_, k) => ({
      chat_id: idOf.get(c.row.chat_id) as number,
      user_id: userIds[(c.start + k) % userIds.length] as number,
      role: k === 0 ? ('owner' as const) : ('member' as const),
      joined_at: c.row.created_at,
    })),
  );
  await insertInBatches(members, (batch) => db.insertInto('chat_members').values(batch).execute());
}

/**
 * A root message in the chat and `replies` replies in its thread, only in the thread (in_timeline 0), from all
 * but the last of `senders` in turn, every tenth quoting the root; the root's count and last reply time, and
 * thread_follows as the group commit leaves them (the root's author, each replier with their first and last
 * reply). Returns the root's id.
 */
export async function seedThread(
  db: Db,
  chat: number,
  senders: number[],
  replies: number,
  startAt: number,
): Promise<number> {
  const author = senders[1 % senders.length] as number;
  const root = await db
    .insertInto('messages')
    .values({
      chat_id: chat,
      sender_id: author,
      kind: 'user',
      client_id: 'seed-thread-root',
      body: 'Thread root: where should the team offsite be this year?',
      created_at: new Date(startAt).toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const repliers = senders.length > 2 ? senders.slice(0, -1) : senders;
  const at = (i: number) => new Date(startAt + (i + 1) * 1000).toISOString();
  const rows = Array.from({ length: replies }, (_, i) => ({
    chat_id: chat,
    sender_id: repliers[i % repliers.length] as number,
    kind: 'user' as const,
    client_id: `seed-reply-${i}`,
    body: `Reply ${i + 1}: ${'somewhere with trails and good coffee '.repeat(2).trim()}`,
    created_at: at(i),
    reply_to_id: i % 10 === 9 ? root.id : null,
    thread_root_id: root.id,
    in_timeline: 0,
  }));
  await insertInBatches(rows, (batch) => db.insertInto('messages').values(batch).execute());
  await db
    .updateTable('messages')
    .set({ thread_reply_count: replies, thread_last_reply_at: at(replies - 1) })
    .where('id', '=', root.id)
    .execute();
  const byReplier = await db
    .selectFrom('messages')
    .select(['sender_id', (eb) => eb.fn.min('id').as('first'), (eb) => eb.fn.max('id').as('last')])
    .where('thread_root_id', '=', root.id)
    .groupBy('sender_id')
    .execute();
  const follows = byReplier.map((r) => ({
    root_id: root.id,
    user_id: r.sender_id as number,
    first_reply_id: r.sender_id === author ? root.id : Number(r.first),
    last_read_id: Number(r.last),
  }));
  if (!follows.some((f) => f.user_id === author))
    follows.push({ root_id: root.id, user_id: author, first_reply_id: root.id, last_read_id: 0 });
  await db.insertInto('thread_follows').values(follows).execute();
  return root.id;
}
