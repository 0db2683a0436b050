import { afterAll, describe, expect, it } from 'vitest';
import { type Person, seedPeople } from '../../src/test-support/seed-people';
import { seedGroup, storedMessages } from '../helpers/chat-data';
import { LoadSocket, quantile } from '../helpers/load-socket';
import { isPostgresUrl } from '../helpers/pg-schema';
import { killAll, type ServerProcess, spawnServer } from '../helpers/server-process';
import { createStore, type ServerStore } from '../helpers/server-store';
import type { Json } from '../helpers/test-app';
import { until } from '../helpers/waits';

// Durability and faults: a soak. Many clients in many rooms write at a fixed, modest rate to one real
// server process (acknowledging deliveries as the web client does); at the end every receiver has every
// message of its room exactly once, the database holds each once, and the server's memory has not kept
// growing between the middle and the end. SOAK_SECONDS sets the length (20 s in the suite; minutes by hand),
// SOAK_CLIENTS the number of clients and SOAK_INTERVAL_MS how often each one writes.

const pgUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : undefined;
const SECONDS = Number(process.env.SOAK_SECONDS ?? 20);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 160);
const ROOMS = Number(process.env.SOAK_ROOMS ?? 20);
/** Each client writes this often (the socket limit is 20 per 10 s per person). */
const INTERVAL_MS = Number(process.env.SOAK_INTERVAL_MS ?? 2000);

const mib = (kib: number) => Math.round(kib / 1024);

class SoakClient {
  seq = 0;
  socket: LoadSocket | null = null;
  /** Own messages written and not yet echoed, by client_id. */
  readonly pending = new Set<string>();
  /** Own messages echoed: their ids. */
  readonly confirmed: number[] = [];
  /** Every chat_message id received, with how many times. */
  readonly received = new Map<number, number>();
  readonly latencies: number[] = [];
  /** Others' messages received since the last delivery acknowledgement. */
  private unacked: number[] = [];
  errors: Json[] = [];
  timer: NodeJS.Timeout | null = null;

  constructor(
    readonly person: Person,
    readonly index: number,
    readonly room: number,
    readonly chatId: string,
  ) {}

  async connect(proc: ServerProcess): Promise<void> {
    this.socket = await LoadSocket.joinRoom(proc, this.chatId, this.person.token, (f: Json) => {
      if (f.type === 'error') this.errors.push(f);
      if (f.type !== 'chat_message') return;
      const m = f.message;
      this.received.set(m.id, (this.received.get(m.id) ?? 0) + 1);
      const sentAt = Number(m.body.split('|')[4]);
      if (sentAt) this.latencies.push(Date.now() - sentAt);
      if (m.sender === this.person.id) {
        if (f.client_id && this.pending.delete(f.client_id)) this.confirmed.push(m.id);
      } else {
        this.unacked.push(m.id);
      }
    });
  }

  /** One tick: acknowledge what arrived since the last one, then write a message. */
  tick(acks: boolean): void {
    if (acks && this.unacked.length > 0) {
      this.socket?.send({ type: 'messages_delivered', message_ids: this.unacked.splice(0, 500) });
    }
    this.seq += 1;
    const clientId = `k${this.index}-${this.seq}`;
    this.pending.add(clientId);
    this.socket?.send({
      type: 'chat_message',
      body: `soak|${this.room}|${this.index}|${this.seq}|${Date.now()}`,
      client_id: clientId,
    });
  }
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function inBatches<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += limit) await Promise.all(items.slice(i, i + limit).map(fn));
}

describe(`soak (${pgUrl ? 'PostgreSQL' : 'SQLite'}, ${SECONDS} s, ${CLIENTS} clients in ${ROOMS} rooms)`, () => {
  let store: ServerStore | null = null;

  afterAll(async () => {
    await killAll();
    await store?.close();
  });

  it(
    'ends with zero lost and zero duplicated messages at every receiver, and flat memory',
    async () => {
      store = await createStore({ postgresUrl: pgUrl });
      const proc = await spawnServer({ store, label: 'soak' });
      const people = await seedPeople(store.db, CLIENTS, 'soak');
      const perRoom = Math.ceil(CLIENTS / ROOMS);
      const clients: SoakClient[] = [];
      const chatIds: string[] = [];
      for (let r = 0; r < ROOMS; r++) {
        const members = people.slice(r * perRoom, (r + 1) * perRoom);
        if (members.length === 0) break;
        const chatId = await seedGroup(proc, store.db, members[0] as Person, members.slice(1), `Soak ${r}`);
        chatIds.push(chatId);
        for (const p of members) clients.push(new SoakClient(p, clients.length, r, chatId));
      }
      await inBatches(clients, 40, (c) => c.connect(proc));

      // Warm-up and a baseline, then the fixed-rate run; RSS sampled every second.
      const rss: { at: number; kib: number }[] = [];
      const cpuStart = proc.cpuSeconds();
      const started = Date.now();
      const sampler = setInterval(() => rss.push({ at: Date.now() - started, kib: proc.rssKiB() }), 1000);
      for (const c of clients) {
        const offset = Math.floor((c.index * INTERVAL_MS) / clients.length);
        setTimeout(() => {
          c.tick(true);
          c.timer = setInterval(() => c.tick(true), INTERVAL_MS);
        }, offset).unref();
      }
      let midKiB = 0;
      try {
        await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 2));
        midKiB = proc.rssKiB();
        await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 2));
      } finally {
        for (const c of clients) if (c.timer) clearInterval(c.timer);
      }
      const endKiB = proc.rssKiB();
      const runMs = Date.now() - started;
      const cpu = proc.cpuSeconds() - cpuStart;
      clearInterval(sampler);
      expect(proc.running).toBe(true);

      // Drain: every write echoed, every message at every receiver of its room.
      await until(
        () => clients.every((c) => c.pending.size === 0),
        'every message confirmed to its sender',
        30_000,
        50,
      );
      const expected = new Map<number, Set<number>>();
      for (const c of clients) {
        const set = expected.get(c.room) ?? new Set<number>();
        for (const id of c.confirmed) set.add(id);
        expected.set(c.room, set);
      }
      await until(
        () => clients.every((c) => [...(expected.get(c.room) ?? [])].every((id) => c.received.has(id))),
        'every receiver to have every message of its room',
        30_000,
        50,
      );

      let lost = 0;
      let duplicated = 0;
      let unexpected = 0;
      let deliveries = 0;
      for (const c of clients) {
        const want = expected.get(c.room) as Set<number>;
        for (const id of want) if (!c.received.has(id)) lost++;
        for (const [id, n] of c.received) {
          deliveries += n;
          if (n > 1) duplicated += n - 1;
          if (!want.has(id)) unexpected++;
        }
      }
      expect({ lost, duplicated, unexpected }).toEqual({ lost: 0, duplicated: 0, unexpected: 0 });
      expect(clients.flatMap((c) => c.errors)).toEqual([]);

      // The database holds each written message once, room by room.
      let written = 0;
      for (const [r, chatId] of chatIds.entries()) {
        const stored = await storedMessages(store.db, chatId);
        const inRoom = clients.filter((c) => c.room === r);
        const writes = inRoom.reduce((n, c) => n + c.seq, 0);
        written += writes;
        expect(stored).toHaveLength(writes);
        expect(new Set(stored.map((m) => `${m.sender_id}/${m.client_id}`)).size).toBe(writes);
        expect(stored.map((m) => m.id).sort((a, b) => a - b)).toEqual(
          [...(expected.get(r) as Set<number>)].sort((a, b) => a - b),
        );
      }
      expect(proc.errors).toEqual([]);

      // Memory: from the middle to the end of the run, RSS may wobble with the garbage collector but not climb.
      const growth = endKiB - midKiB;
      expect(mib(growth), `RSS ${mib(midKiB)} MiB at the middle, ${mib(endKiB)} MiB at the end`).toBeLessThan(
        Math.max(24, mib(midKiB) * 0.15),
      );

      const latencies = clients.flatMap((c) => c.latencies);
      console.info(
        `[soak ${store.dialect}] ${clients.length} clients, ${chatIds.length} rooms, ${runMs} ms: ${written} messages ` +
          `written (${((written * 1000) / runMs).toFixed(0)}/s), ${deliveries} deliveries ` +
          `(${((deliveries * 1000) / runMs).toFixed(0)}/s); lost ${lost}, duplicated ${duplicated}; latency ` +
          `p50 ${quantile(latencies, 0.5)} ms p99 ${quantile(latencies, 0.99)} ms max ${quantile(latencies, 1)} ms; ` +
          `server CPU ${cpu.toFixed(1)} s; RSS MiB ${rss.map((s) => mib(s.kib)).join(' ')} ` +
          `(middle ${mib(midKiB)}, end ${mib(endKiB)})`,
      );
      await Promise.all(clients.map((c) => c.socket?.close()));
    },
    (SECONDS + 120) * 1000,
  );
});
