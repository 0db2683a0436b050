import { randomBytes } from 'node:crypto';
import {
  type Config,
  createDb,
  type Db,
  insertInBatches,
  migrateToLatest,
  type Person,
  seedPeople,
} from '@parley/server';
import { seedChannels, seedThread } from './seed-channels';

// Seeds Parley's own database directly (registering through the API would spend most of the run in argon2,
// which is slow on purpose): people as the server's scale tests seed them (activated, with live session
// tokens), then group chats, their members and a history; for the channels scenario, public channels and a long
// thread (seed-channels.ts).
export interface SeedSpec {
  rooms: number;
  membersPerRoom: number;
  /** Users in no room (idle and churn connections). */
  extraUsers?: number;
  /** Messages stored in the first room, for the history benchmark. */
  historyMessages?: number;
  /** Public channels for the directory, their members drawn from every seeded person. */
  channels?: number;
  /** Replies in one thread under a root message of the first room, after its history. */
  threadReplies?: number;
}

export type SeededUser = Person;
export interface SeededRoom {
  chatId: string;
  /** Indexes into `users`. */
  members: number[];
}
export interface SeedResult {
  users: SeededUser[];
  rooms: SeededRoom[];
}

export async function seedParley(config: Config, spec: SeedSpec): Promise<SeedResult> {
  const { db, dialect } = createDb(config);
  try {
    await migrateToLatest(db, dialect);
    return await db.transaction().execute((trx) => seedInto(trx as unknown as Db, spec));
  } finally {
    await db.destroy();
  }
}

async function seedInto(db: Db, spec: SeedSpec): Promise<SeedResult> {
  const now = new Date().toISOString();
  const userCount = spec.rooms * spec.membersPerRoom + (spec.extraUsers ?? 0);
  // bench_u1 … bench_u<n>, ids 1 … n in the fresh database: the peers name their senders the same way.
  const users = await seedPeople(db, userCount, 'bench');

  const rooms: SeededRoom[] = Array.from({ length: spec.rooms }, (_, r) => ({
    chatId: randomBytes(9).toString('base64url'),
    members: Array.from({ length: spec.membersPerRoom }, (_, m) => r * spec.membersPerRoom + m),
  }));
  await insertInBatches(rooms, (batch) =>
    db
      .insertInto('chats')
      .values(
        batch.map((room, i) => ({
          chat_id: room.chatId,
          is_private: 0,
          private_key: null,
          name: `Bench room ${i + 1}`,
          created_at: now,
          last_activity_at: now,
        })),
      )
      .execute(),
  );
  const chatRows = await db.selectFrom('chats').select(['id', 'chat_id']).execute();
  const chatDbId = new Map(chatRows.map((c) => [c.chat_id, c.id]));
  const members = rooms.flatMap((room) =>
    room.members.map((u, i) => ({
      chat_id: chatDbId.get(room.chatId) as number,
      user_id: (users[u] as SeededUser).id,
      role: i === 0 ? ('admin' as const) : ('member' as const),
      joined_at: now,
    })),
  );
  await insertInBatches(members, (batch) => db.insertInto('chat_members').values(batch).execute());

  const first = rooms[0];
  const historyMessages = spec.historyMessages ?? 0;
  const threadReplies = spec.threadReplies ?? 0;
  const start = Date.now() - (historyMessages + threadReplies + 1) * 1000;
  if (first && historyMessages) {
    const chat = chatDbId.get(first.chatId) as number;
    const messages = Array.from({ length: historyMessages }, (_, i) => ({
      chat_id: chat,
      sender_id: (users[first.members[i % first.members.length] as number] as SeededUser).id,
      kind: 'user' as const,
      client_id: `seed-${i}`,
      body: `History message ${i + 1}: ${'lorem ipsum dolor sit amet '.repeat(3).trim()}`,
      created_at: new Date(start + i * 1000).toISOString(),
    }));
    await insertInBatches(messages, (batch) => db.insertInto('messages').values(batch).execute());
  }
  if (first && threadReplies) {
    const senders = first.members.map((u) => (users[u] as SeededUser).id);
    const chat = chatDbId.get(first.chatId) as number;
    await seedThread(db, chat, senders, threadReplies, start + historyMessages * 1000);
  }
  if (spec.channels)
    await seedChannels(
      db,
      users.map((u) => u.id),
      spec.channels,
    );
  return { users, rooms };
}
