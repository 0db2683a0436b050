import { randomBytes } from 'node:crypto';
import type { Config } from '../../apps/server/src/config';
import { createDb, type Db } from '../../apps/server/src/db/database';
import { migrateToLatest } from '../../apps/server/src/db/migrate';
import { hashToken } from '../../apps/server/src/modules/accounts/session.service';

// Seeds Parley's own database directly (registering through the API would spend most of the run in argon2,
// which is slow on purpose): activated users with live session tokens, group chats and their members.
export interface SeedSpec {
  rooms: number;
  membersPerRoom: number;
  /** Users in no room (idle and churn connections). */
  extraUsers?: number;
  /** Messages stored in the first room, for the history benchmark. */
  historyMessages?: number;
}

export interface SeededUser {
  id: number;
  token: string;
}
export interface SeededRoom {
  chatId: string;
  /** Indexes into `users`. */
  members: number[];
}
export interface SeedResult {
  users: SeededUser[];
  rooms: SeededRoom[];
}

const BATCH = 400;

/**
 * A session token as SessionService.create makes one (32 random bytes, base64url), except that it never starts
 * with "t_": the socket routes take such a token for a socket ticket and refuse it (1 real token in 4,096).
 */
function sessionToken(): string {
  for (;;) {
    const token = randomBytes(32).toString('base64url');
    if (!token.startsWith('t_')) return token;
  }
}
const DAY_MS = 24 * 60 * 60 * 1000;

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
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
  const names = Array.from({ length: userCount }, (_, i) => `bench_u${i + 1}`);
  await insertInBatches(names, (batch) =>
    db
      .insertInto('users')
      .values(
        batch.map((username) => ({
          username,
          email: `${username}@bench.invalid`,
          password_hash: 'not-a-hash: bench users never log in with a password',
          first_name: 'Bench',
          last_name: username.slice('bench_'.length),
          displayname: username,
          is_activated: 1,
          date_joined: now,
        })),
      )
      .execute(),
  );
  const idRows = await db.selectFrom('users').select(['id', 'username']).execute();
  const idOf = new Map(idRows.map((r) => [r.username, r.id]));
  const users = names.map((n) => ({
    id: idOf.get(n) as number,
    token: sessionToken(),
  }));

  const expires = new Date(Date.now() + 30 * DAY_MS).toISOString();
  await insertInBatches(users, (batch) =>
    db
      .insertInto('sessions')
      .values(
        batch.map((u) => ({
          user_id: u.id,
          token_hash: hashToken(u.token),
          remember: 1,
          expires_at: expires,
          created_at: now,
        })),
      )
      .execute(),
  );

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
  if (first && spec.historyMessages) {
    const chat = chatDbId.get(first.chatId) as number;
    const start = Date.now() - spec.historyMessages * 1000;
    const messages = Array.from({ length: spec.historyMessages }, (_, i) => ({
      chat_id: chat,
      sender_id: (users[first.members[i % first.members.length] as number] as SeededUser).id,
      kind: 'user' as const,
      client_id: `seed-${i}`,
      body: `History message ${i + 1}: ${'lorem ipsum dolor sit amet '.repeat(3).trim()}`,
      created_at: new Date(start + i * 1000).toISOString(),
    }));
    await insertInBatches(messages, (batch) => db.insertInto('messages').values(batch).execute());
  }
  return { users, rooms };
}
