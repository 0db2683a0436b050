import { MAX_REACTION_EMOJI } from '@parley/protocol';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { history } from '../chats/chat-helpers';
import { isPostgresUrl } from '../helpers/pg-schema';
import { type ApiResponse, type TestApp, useTestApp } from '../helpers/test-app';
import { until } from '../helpers/waits';
import {
  closeAll,
  deleteMessage,
  editMessage,
  expectStatus,
  groupInRoom,
  messageRow,
  react,
  send,
  sideRows,
} from './essentials-helpers';

// Edits, deletions and reactions under concurrency (PostgreSQL, where requests run on pooled connections at the same time; SQLite runs
// one transaction after another). Changes to one message must not interleave: a deletion erases every earlier
// version and reaction even when an edit or a reaction races it, and two people cannot pass the 20-emoji limit
// together. The interleaving is forced, not hoped for: the test holds the message's row lock while the calls
// start, waits until each call is either answered or waiting for that lock, then lets go.
const app = useTestApp();
const onPostgres = isPostgresUrl(process.env.DATABASE_URL);

/** Runs `fn` while a transaction of the test holds the message's row lock; `waiting()` counts calls held up by it. */
async function whileLocked(
  t: TestApp,
  messageId: number,
  fn: (waiting: () => Promise<number>) => Promise<void>,
) {
  await t.ctx.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
    const pid = rows[0]?.pid;
    await sql`select id from messages where id = ${messageId} for update`.execute(trx);
    // Waiting behind the test, or behind another call that waits for it (PostgreSQL queues them so).
    const waiting = async () => {
      const res = await sql<{ n: number }>`
        with recursive behind(pid) as (
          select pid from pg_stat_activity where ${pid}::int = any(pg_blocking_pids(pid))
          union
          select a.pid from pg_stat_activity a join behind b on b.pid = any(pg_blocking_pids(a.pid))
        )
        select count(*)::int as n from behind`.execute(t.ctx.db);
      return res.rows[0]?.n ?? 0;
    };
    await fn(waiting);
  });
}

/** Starts calls one after another, each once the previous is answered or held up by the lock. */
async function startAll(waiting: () => Promise<number>, calls: Array<() => Promise<ApiResponse>>) {
  const started: Promise<ApiResponse>[] = [];
  const answered = new Set<number>();
  try {
    for (const call of calls) {
      const index = started.length;
      started.push(
        call().then((res) => {
          answered.add(index);
          return res;
        }),
      );
      await until(
        async () => answered.size + (await waiting()) >= started.length,
        `call ${index} answered or waiting for the lock`,
        10_000,
      );
    }
  } catch (err) {
    // The calls still running end with the app: their failures are not this test's news.
    for (const p of started) p.catch(() => {});
    throw err;
  }
  return started;
}

/** Starts the calls while the message is locked (see above); their answers once the lock is let go. */
async function raced(t: TestApp, messageId: number, calls: Array<() => Promise<ApiResponse>>) {
  let started: Promise<ApiResponse>[] = [];
  await whileLocked(t, messageId, async (waiting) => {
    started = await startAll(waiting, calls);
  });
  return Promise.all(started);
}

describe.skipIf(!onPostgres)('changes racing on one message (PostgreSQL)', () => {
  it('an edit racing a deletion leaves no earlier version behind', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, rooms } = await groupInRoom(t);
    const sent = await send(adaRoom, 'secret first draft');
    const [edited, deleted] = await raced(t, sent.id, [
      () => editMessage(t, ada.token, chatId, sent.id, 'second draft'),
      () => deleteMessage(t, ada.token, chatId, sent.id),
    ]);
    expect(deleted?.status, deleted?.text).toBe(204);
    // The edit came first (it waited first), then the deletion erased both versions.
    expect(edited?.status, edited?.text).toBe(200);
    expect(await sideRows(t, sent.id)).toEqual({ edits: [], reactions: [] });
    const row = await messageRow(t, sent.id);
    expect([row.body, row.deleted_at === null]).toEqual(['', false]);
    expect((await history(t, grace.token, chatId))[0]).toMatchObject({ is_deleted: true, body: '' });
    await closeAll(rooms);
  });

  it('a reaction racing a deletion is refused, not left on the deleted message', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, rooms } = await groupInRoom(t);
    const sent = await send(adaRoom, 'about to go');
    const [deleted, reacted] = await raced(t, sent.id, [
      () => deleteMessage(t, ada.token, chatId, sent.id),
      () => react(t, grace.token, chatId, sent.id, '👍'),
    ]);
    expect(deleted?.status, deleted?.text).toBe(204);
    expect(reacted?.status, reacted?.text).toBe(409);
    expect(await sideRows(t, sent.id)).toEqual({ edits: [], reactions: [] });
    await closeAll(rooms);
  });

  it('two people adding the 20th and 21st emoji at once: one of them is refused', async () => {
    const t = app();
    const { ada, grace, alan, chatId, adaRoom, rooms } = await groupInRoom(t);
    const sent = await send(adaRoom, 'nearly full');
    for (let i = 0; i < MAX_REACTION_EMOJI - 1; i++)
      expectStatus(await react(t, ada.token, chatId, sent.id, String.fromCodePoint(0x1f600 + i)), 200);
    const answers = await raced(t, sent.id, [
      () => react(t, grace.token, chatId, sent.id, '🦀'),
      () => react(t, alan.token, chatId, sent.id, '🦊'),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const emoji = new Set((await sideRows(t, sent.id)).reactions.map((r) => r.emoji));
    expect(emoji.size).toBe(MAX_REACTION_EMOJI);
    await closeAll(rooms);
  });
});
