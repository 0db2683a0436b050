import { randomBytes } from 'node:crypto';
import { GOOD_PASSWORD, seededPersonNames } from '@parley/fixtures';
import { SESSION_TTL_REMEMBER_MS } from '@parley/protocol';
import argon2 from 'argon2';
import type { Db } from '../db/database';
import { hashToken } from '../modules/accounts/session.service';

// People written straight into the database, for the scale tests and the benchmarks alike: hundreds or
// thousands of activated accounts without as many sign-ups (argon2 is slow on purpose), each with a live
// remember-me session. The one way people are seeded; the benchmarks reach it through the server's public
// entry (src/index.ts) and bench/parley/seed.ts builds its rooms on it.

export interface Person {
  id: number;
  username: string;
  /** A session token, as a sign-in hands one out. */
  token: string;
}

/** Rows per INSERT: hundreds of people without hundreds of statements, within SQLite's variable limit. */
const BATCH = 400;

let passwordHash: Promise<string> | null = null;

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

export async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

/**
 * `count` activated people named `<prefix>_u1` … `<prefix>_u<count>` (see seededPersonNames; a prefix is used
 * once per database), who can also log in with GOOD_PASSWORD, each with a live remember-me session, in order.
 * `db` may be the caller's transaction.
 */
export async function seedPeople(db: Db, count: number, prefix = 'load'): Promise<Person[]> {
  // Cheap argon2 settings: the hash only has to verify, not to resist anyone.
  passwordHash ??= argon2.hash(GOOD_PASSWORD, { type: argon2.argon2id, memoryCost: 1024, timeCost: 2 });
  const password_hash = await passwordHash;
  const now = new Date();
  const date_joined = now.toISOString();
  const rows = Array.from({ length: count }, (_, i) => ({
    ...seededPersonNames(prefix, i + 1),
    password_hash,
    is_activated: 1,
    date_joined,
  }));
  const idOf = new Map<string, number>();
  await insertInBatches(rows, async (batch) => {
    const ids = await db.insertInto('users').values(batch).returning(['id', 'username']).execute();
    for (const { id, username } of ids) idOf.set(username, id);
  });
  const people = rows.map(({ username }) => ({
    id: idOf.get(username) as number,
    username,
    token: sessionToken(),
  }));
  const expires_at = new Date(now.getTime() + SESSION_TTL_REMEMBER_MS).toISOString();
  await insertInBatches(people, (batch) =>
    db
      .insertInto('sessions')
      .values(
        batch.map((p) => ({
          user_id: p.id,
          token_hash: hashToken(p.token),
          remember: 1,
          expires_at,
          created_at: date_joined,
        })),
      )
      .execute(),
  );
  return people;
}
