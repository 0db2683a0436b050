import { afterAll, describe, expect, it } from 'vitest';
import { type Person, seedPeople } from '../../src/test-support/seed-people';
import { historyAfter, seedGroup, storedMessages } from '../helpers/chat-data';
import { LoadSocket } from '../helpers/load-socket';
import { isPostgresUrl } from '../helpers/pg-schema';
import { pump, Sender } from '../helpers/room-sender';
import { killAll, type ServerProcess, spawnServer } from '../helpers/server-process';
import { createStore, type ServerStore } from '../helpers/server-store';
import { until } from '../helpers/waits';

// Durability and faults: kill -9 the server while clients send. After a restart on the same
// database, every message a sender saw confirmed is in history exactly once and in order, the clients resend
// what was pending (same client_ids) and catch up with ?after= by themselves, and nothing is doubled.
// SQLite always; PostgreSQL as well when DATABASE_URL says so.

const pgUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : undefined;
const SENDERS = 6;
/** At most this many messages each reach the first server; one more each is written while it is down. */
const BEFORE = 14;
/** Messages each sender writes after the restart (the socket limit is 20 per 10 s per person, resends too). */
const AFTER = 4;
const INTERVAL_MS = 90;
/** One sender stops hearing the server after writing this many messages. */
const DEAF_AFTER = 4;

describe(`kill -9 while clients send (${pgUrl ? 'PostgreSQL' : 'SQLite'})`, () => {
  let store: ServerStore | null = null;
  /** The process left running by the kill test (the restarted one), for the ordering test. */
  let current: ServerProcess | null = null;

  afterAll(async () => {
    await killAll();
    await store?.close();
  });

  it('keeps every confirmed message exactly once and in order; clients resend and catch up by themselves', async () => {
    store ??= await createStore({ postgresUrl: pgUrl });
    const db = store.db;
    const first = await spawnServer({ store, label: 'first' });
    const people = await seedPeople(db, SENDERS, 'durable');
    const chatId = await seedGroup(first, db, people[0] as Person, people.slice(1), 'Durable');
    const senders = people.map((p, i) => new Sender(p, i, chatId));
    await Promise.all(senders.map((s) => s.connect(first)));

    // Everyone writes; the server is killed mid-stream; they keep writing (queued offline) a little longer.
    // One client stops hearing the server part-way: its later messages are stored but never confirmed, so its
    // resends after the restart must be recognised, not stored twice.
    const deaf = senders[0] as Sender;
    deaf.deafAfter = DEAF_AFTER;
    const writing = pump(senders, BEFORE, INTERVAL_MS);
    // The kill comes once the others have seen a few confirmations and the deaf one has a stored, unconfirmed
    // message: mid-stream however fast or slow the machine is.
    const deafStored = async () =>
      (await storedMessages(db, chatId)).some(
        (m) => m.sender_id === deaf.person.id && Number(m.client_id?.split('-')[1]) > DEAF_AFTER,
      );
    await until(
      async () => senders.slice(1).every((s) => s.confirmed.size >= 2) && (await deafStored()),
      'confirmations before the kill',
      30_000,
      10,
    );
    const inFlight = senders.reduce((n, s) => n + s.pending().length, 0);
    const stillWriting = senders.filter((s) => s.seq < BEFORE).length;
    await first.kill('SIGKILL');
    const closes = await Promise.all(senders.map((s) => s.socket?.closed));
    expect(closes.map((c) => c?.code)).toEqual(senders.map(() => 1006));
    // What each sender saw confirmed before the kill: the promise under test.
    const confirmedBeforeKill = senders.map((s) => new Map(s.confirmed));
    await writing;
    // Each writes one more while the server is down: pending, to be resent.
    for (const s of senders) s.write();
    const confirmedCount = confirmedBeforeKill.reduce((n, m) => n + m.size, 0);
    expect(confirmedCount).toBeGreaterThan(0);
    const storedByFirst = new Set(
      (await storedMessages(db, chatId)).map((m) => `${m.sender_id}/${m.client_id}`),
    );
    const storedUnconfirmed = deaf
      .pending()
      .filter((m) => storedByFirst.has(`${deaf.person.id}/${m.clientId}`));
    expect(storedUnconfirmed.length).toBeGreaterThan(0);

    // A new process on the same database (and the same address); the clients come back by themselves.
    const second = await spawnServer({ store, port: first.port, label: 'second' });
    current = second;
    for (const s of senders) await s.connect(second);
    await Promise.all(senders.map((s) => s.resendAndCatchUp(second)));
    await pump(senders, BEFORE + 1 + AFTER, INTERVAL_MS);
    await until(() => senders.every((s) => s.pending().length === 0), 'every message confirmed', 15_000);

    const stored = await storedMessages(db, chatId);
    await until(
      () => senders.every((s) => stored.every((m) => s.view.has(m.id))),
      'every client caught up with the whole history',
      10_000,
    );

    // Nothing doubled: one row per (sender, client_id), one per attempted message.
    const keys = stored.map((m) => `${m.sender_id}/${m.client_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(stored).toHaveLength(SENDERS * (BEFORE + 1 + AFTER));
    expect(senders.map((s) => s.rateLimited)).toEqual(senders.map(() => 0));

    for (const s of senders) {
      const own = stored.filter((m) => m.sender_id === s.person.id);
      // Every message confirmed before the kill is stored, with the id its echo carried.
      for (const [clientId, id] of confirmedBeforeKill[s.index] as Map<string, number>) {
        expect(own.filter((m) => m.client_id === clientId).map((m) => m.id)).toEqual([id]);
      }
      // Per-sender order is the order of writing.
      expect(own.map((m) => m.client_id)).toEqual(s.attempted.map((m) => m.clientId));
      expect(own.map((m) => m.body)).toEqual(s.attempted.map((m) => m.body));
      // Each client's merged view is the whole history, and the API history is the same.
      expect([...s.view.keys()].sort((x, y) => x - y)).toEqual(stored.map((m) => m.id));
      // No socket ever delivered a message twice, but for a resent one: a resend of a stored message is
      // announced to the room again (the first broadcast may have died with the server); clients merge by id.
      const seen = new Map<number, number>();
      for (const id of s.liveIds) seen.set(id, (seen.get(id) ?? 0) + 1);
      for (const [id, n] of seen) {
        const m = s.view.get(id);
        const mayRepeat = senders.some((o) => m?.sender === o.person.id && o.resent.has(m.client_id));
        expect(n, `message ${id} delivered ${n} times to sender ${s.index}`).toBeLessThanOrEqual(
          mayRepeat ? 2 : 1,
        );
      }
    }
    const api = await historyAfter(second, people[1]?.token as string, chatId, 0);
    expect(api.map((m) => m.id)).toEqual(stored.map((m) => m.id));
    expect(second.errors).toEqual([]);

    const resent = senders.reduce((n, s) => n + s.resent.size, 0);
    console.info(
      `[durability ${store.dialect}] ${stored.length} messages; ${confirmedCount} confirmed before the kill, ` +
        `${inFlight} unconfirmed at the kill (${storedUnconfirmed.length} of the deaf client's stored), ` +
        `${stillWriting} of ${SENDERS} still writing at the kill, ${resent} resent after the restart`,
    );
  }, 150_000);

  // A client that drops after receiving id n and catches up with ?after=n never sees a lower id that was still
  // on its way. On PostgreSQL, ChatsService.send commits concurrent messages of one chat in any order and reads
  // the message back on other pool connections before announcing it, so ids arrive out of order (the fix:
  // one chat's sends in sequence within a process; across processes, a per-chat sequence clients can check).
  it("delivers a room's messages in id order under concurrent senders, which ?after=<last id seen> relies on", async () => {
    store ??= await createStore({ postgresUrl: pgUrl });
    const proc = current?.running ? current : await spawnServer({ store, label: 'ordering' });
    const [reader, ...writers] = await seedPeople(store.db, 6, 'order');
    const chatId = await seedGroup(proc, store.db, reader as Person, writers, 'Order');
    const order: number[] = [];
    const readerSocket = await LoadSocket.joinRoom(proc, chatId, (reader as Person).token, (f) => {
      if (f.type === 'chat_message') order.push(f.message.id);
    });
    const sockets = await Promise.all(
      writers.map((w) => LoadSocket.joinRoom(proc, chatId, w.token, () => {})),
    );
    for (let n = 0; n < 15; n++) {
      for (const [i, socket] of sockets.entries())
        socket.send({ type: 'chat_message', body: `w${i} ${n}`, client_id: `o${i}-${n}` });
    }
    await until(() => order.length === writers.length * 15, 'every message at the reader', 20_000);
    // A client that drops after receiving id n and catches up with ?after=n misses any lower id still to come.
    const late = order.filter((id, i) => order.slice(0, i).some((earlier) => earlier > id));
    expect(late, `arrival order ${order.join(' ')}`).toEqual([]);
    await Promise.all([readerSocket, ...sockets].map((s) => s.close()));
  });
});
