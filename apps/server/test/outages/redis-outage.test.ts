import path from 'node:path';
import { CLOSE_AUTH_FAILED, CLOSE_NOT_FOUND, CLOSE_SERVICE_RESTART } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Person, seedPeople } from '../../src/test-support/seed-people';
import { historyAfter, seedGroup, storedMessages } from '../helpers/chat-data';
import { type CuttableProxy, startCuttableProxy, throughProxy } from '../helpers/cuttable-proxy';
import { LoadSocket } from '../helpers/load-socket';
import { killAll, type ServerProcess, spawnServer } from '../helpers/server-process';
import { createStore, type ServerStore } from '../helpers/server-store';
import type { Json } from '../helpers/test-app';
import { twoProcessesEnabled } from '../helpers/two-processes';
import { sleep, until } from '../helpers/waits';

// Redis stops answering for 30 s while two processes serve one conversation. The machine's shared Redis keeps
// running: the processes reach it through a proxy the test cuts. People keep sending; each acknowledged message
// is stored once; people on the same process keep hearing each other; once Redis is back, delivery across
// processes resumes and the clients that missed frames catch up by themselves; rate limits and presence work;
// each process logs the outage in a few lines, not one per message; /readyz names Redis while it is away.

/** How long Redis is away. */
const OUTAGE_MS = 30_000;
/** Each person writes a message this often (the socket limit is 20 per 10 s per person). */
const WRITE_EVERY_MS = 1000;
const WAIT = 20_000;
/** Messages a person may send per 10 s on a socket (the server's default MESSAGE_RATE_LIMIT). */
const MESSAGE_LIMIT = 20;

/**
 * A room client as the web client behaves: pending by client_id, merged by id; it reconnects (at once after a
 * 1012), reads again what it holds and what came after, and resends what is unconfirmed.
 */
class RoomClient {
  seq = 0;
  readonly attempted: { clientId: string; body: string }[] = [];
  readonly confirmed = new Map<string, number>();
  /** Every message this client knows (live and caught up), by id. */
  readonly view = new Map<number, Json>();
  /** Ids of chat_message frames as they arrived live. */
  readonly liveIds: number[] = [];
  /** Error frames other than rate_limited. */
  readonly failures: Json[] = [];
  rateLimited = 0;
  /** The users of the last in_chat_users_update. */
  inRoom: number[] = [];
  readonly closeCodes: number[] = [];
  reconnects = 0;
  private socket: LoadSocket | null = null;
  private stopped = false;
  private ready = false;

  constructor(
    readonly proc: ServerProcess,
    readonly person: Person,
    readonly chatId: string,
    readonly label: string,
  ) {}

  /** The oldest message it knows (0: none). */
  get firstId(): number {
    let min = 0;
    for (const id of this.view.keys()) if (min === 0 || id < min) min = id;
    return min;
  }

  pending() {
    return this.attempted.filter((m) => !this.confirmed.has(m.clientId));
  }

  get isOpen(): boolean {
    return this.ready && !!this.socket?.isOpen;
  }

  /** Opens the room socket; from then on it reconnects by itself (1012 at once, anything else after 1 s). */
  async start(): Promise<void> {
    // What it knows may have gaps (frames lost while Redis was away), so like the web client it reads again
    // the whole stretch it holds, and everything after it.
    const from = Math.max(0, this.firstId - 1);
    const socket = await LoadSocket.joinRoom(this.proc, this.chatId, this.person.token, (f) =>
      this.onFrame(f),
    );
    this.socket = socket;
    void socket.closed.then(({ code }) => {
      this.ready = false;
      this.closeCodes.push(code);
      if (this.stopped || code === CLOSE_AUTH_FAILED || code === CLOSE_NOT_FOUND) return;
      void this.reconnect(code === CLOSE_SERVICE_RESTART ? 0 : 1000);
    });
    // After every open, as the web client does: what arrived while away, then what waits unconfirmed.
    for (const m of await historyAfter(this.proc, this.person.token, this.chatId, from))
      this.view.set(m.id, m);
    for (const m of this.pending()) this.send(m);
    this.ready = true;
  }

  private async reconnect(delayMs: number): Promise<void> {
    for (let delay = delayMs; !this.stopped; delay = 1000) {
      await sleep(delay);
      try {
        await this.start();
        this.reconnects += 1;
        return;
      } catch {
        // Not open yet: try again.
      }
    }
  }

  private onFrame(f: Json): void {
    if (f.type === 'in_chat_users_update') this.inRoom = f.user_ids;
    if (f.type === 'error') {
      if (f.code === 'rate_limited') this.rateLimited += 1;
      else this.failures.push(f);
    }
    if (f.type !== 'chat_message') return;
    const m = f.message;
    this.liveIds.push(m.id);
    this.view.set(m.id, m);
    if (m.sender === this.person.id && f.client_id) this.confirmed.set(f.client_id, m.id);
  }

  private send(m: { clientId: string; body: string }): void {
    this.socket?.ws.send(JSON.stringify({ type: 'chat_message', body: m.body, client_id: m.clientId }));
  }

  /** The next message: pending at once, sent now if the socket is up (else on the next open). */
  write(): { clientId: string; body: string } {
    this.seq += 1;
    const m = { clientId: `${this.label}-${this.seq}`, body: `${this.label} message ${this.seq}` };
    this.attempted.push(m);
    if (this.isOpen) this.send(m);
    return m;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.socket?.ws.close(1000);
    await this.socket?.closed;
  }
}

/** Every log line a process writes, parsed (pino JSON), with when it came. */
function captureLog(proc: ServerProcess): { at: number; line: Json }[] {
  const lines: { at: number; line: Json }[] = [];
  let partial = '';
  const read = (text: string) => {
    const parts = (partial + text).split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) {
      if (!part.startsWith('{')) continue;
      try {
        lines.push({ at: Date.now(), line: JSON.parse(part) });
      } catch {
        // Not a log line.
      }
    }
  };
  proc.child.stdout?.on('data', read);
  proc.child.stderr?.on('data', read);
  return lines;
}

const readyz = async (proc: ServerProcess) => {
  const res = await proc.get('/readyz');
  return { status: res.status, body: res.body };
};

/** `count` messages written at once by a client of its own in a room of its own; waits for every answer. */
async function burst(proc: ServerProcess, person: Person, chatId: string, count: number) {
  const client = new RoomClient(proc, person, chatId, `burst${person.id}`);
  await client.start();
  for (let i = 0; i < count; i++) client.write();
  await until(
    () => client.confirmed.size + client.rateLimited + client.failures.length >= count,
    `answers to ${client.label}'s burst`,
    WAIT,
  );
  await client.stop();
  return client;
}

describe.skipIf(!twoProcessesEnabled)('a Redis outage under two processes', () => {
  let store: ServerStore;
  let proxy: CuttableProxy;
  let a: ServerProcess;
  let b: ServerProcess;
  const logs = new Map<ServerProcess, { at: number; line: Json }[]>();

  beforeAll(async () => {
    const redisUrl = process.env.REDIS_URL as string;
    const target = new URL(redisUrl);
    proxy = await startCuttableProxy({ host: target.hostname, port: Number(target.port || 6379) });
    store = await createStore({ postgresUrl: process.env.DATABASE_URL });
    const spawn = async (label: string) => {
      const proc = await spawnServer({
        store,
        redisUrl: throughProxy(redisUrl, proxy),
        label,
        dataDir: path.join(store.dataDir, label.toLowerCase()),
        // Info: the line saying Redis answers again, too.
        env: { LOG_LEVEL: 'info' },
      });
      logs.set(proc, captureLog(proc));
      return proc;
    };
    a = await spawn('A');
    b = await spawn('B');
  }, 120_000);

  afterAll(async () => {
    proxy?.restore();
    await killAll();
    await store?.close();
    await proxy?.close();
  });

  it('keeps sending and delivering, then catches every client up once Redis is back', async () => {
    const [ada, bea, cy, dee, eve, fay] = await seedPeople(store.db, 6, 'outage');
    if (!ada || !bea || !cy || !dee || !eve || !fay) throw new Error('people not seeded');
    const chatId = await seedGroup(a, store.db, ada, [bea, cy], 'Outage');
    // Ada and Bea on A, Cy on B.
    const clients = [
      new RoomClient(a, ada, chatId, 'ada'),
      new RoomClient(a, bea, chatId, 'bea'),
      new RoomClient(b, cy, chatId, 'cy'),
    ];
    const [adaC, beaC, cyC] = clients as [RoomClient, RoomClient, RoomClient];
    for (const c of clients) await c.start();
    await until(() => cyC.inRoom.length === 3, 'Cy seeing everyone in the room', WAIT);
    // Soft: a failure here is reported with whatever else fails, and the outage still runs.
    expect
      .soft(await readyz(a))
      .toEqual({ status: 200, body: { status: 'ready', database: 'ok', redis: 'ok' } });

    // Before: everyone hears everyone.
    const before = clients.map((c) => c.write().clientId);
    await until(
      () => clients.every((c) => before.every((id, i) => c.view.has(clients[i]?.confirmed.get(id) ?? -1))),
      'the first messages everywhere',
      WAIT,
    );

    const writing = setInterval(() => {
      for (const c of clients) c.write();
    }, WRITE_EVERY_MS);
    try {
      await sleep(WRITE_EVERY_MS * 2);
      proxy.cut();
      const cutAt = Date.now();
      const seqAtCut = clients.map((c) => c.seq);

      // /readyz names Redis on both processes.
      for (const proc of [a, b])
        await until(
          async () => (await readyz(proc)).status === 503,
          `${proc.label} unready while Redis is away`,
          WAIT,
          200,
        );
      expect.soft(await readyz(a)).toEqual({
        status: 503,
        body: { status: 'unavailable', database: 'ok', redis: 'unavailable' },
      });
      expect
        .soft((await readyz(b)).body)
        .toEqual({ status: 'unavailable', database: 'ok', redis: 'unavailable' });

      await sleep(Math.max(0, OUTAGE_MS - (Date.now() - cutAt)));
      // Still away: what each person wrote meanwhile was acknowledged, and heard live on the same process.
      const outage = clients.map((c, i) => c.attempted.slice(seqAtCut[i]));
      for (const [i, c] of clients.entries()) {
        expect(c.failures, `${c.label}'s refusals`).toEqual([]);
        const written = outage[i] ?? [];
        expect(written.length).toBeGreaterThanOrEqual(OUTAGE_MS / WRITE_EVERY_MS / 2);
        // All but the last second's were acknowledged while Redis was away.
        const acked = written.filter((m) => c.confirmed.has(m.clientId));
        expect(acked.length, `${c.label}'s acknowledgements during the outage`).toBeGreaterThanOrEqual(
          written.length - 2,
        );
      }
      const heardLive = (listener: RoomClient, speaker: RoomClient, i: number) =>
        (outage[i] ?? [])
          .map((m) => speaker.confirmed.get(m.clientId))
          .filter((id): id is number => id !== undefined)
          .every((id) => listener.liveIds.includes(id));
      expect(heardLive(beaC, adaC, 0), 'Bea hears Ada live on A').toBe(true);
      expect(heardLive(adaC, beaC, 1), 'Ada hears Bea live on A').toBe(true);
      // Still away: a socket opened now works (presence answers from what the process knows), and rate limits
      // fail open to this process's own limit, not to none.
      const deeRoom = await seedGroup(a, store.db, dee, [], 'Dee alone');
      const deeBurst = await burst(a, dee, deeRoom, MESSAGE_LIMIT + 3);
      expect(deeBurst.failures).toEqual([]);
      expect(deeBurst.rateLimited).toBeGreaterThanOrEqual(3);
      expect(deeBurst.confirmed.size).toBe(MESSAGE_LIMIT);
      expect((await a.get(`/api/users/@${ada.username}/`, bea.token)).status).toBe(200);
      expect(proxy.open()).toBe(0);
      proxy.restore();

      for (const proc of [a, b])
        await until(
          async () => (await readyz(proc)).status === 200,
          `${proc.label} ready once Redis is back`,
          WAIT,
          200,
        );
      expect
        .soft(await readyz(b))
        .toEqual({ status: 200, body: { status: 'ready', database: 'ok', redis: 'ok' } });

      // Across processes again: Ada's next message reaches Cy on B live.
      await until(() => clients.every((c) => c.isOpen), 'every client connected again', WAIT);
      const probe = adaC.write();
      await until(() => adaC.confirmed.has(probe.clientId), "Ada's probe acknowledged", WAIT);
      const probeId = adaC.confirmed.get(probe.clientId) as number;
      await until(() => cyC.liveIds.includes(probeId), "Cy hearing Ada's probe live on B", WAIT);
    } finally {
      clearInterval(writing);
    }

    // Every message acknowledged, stored once, and every client caught up without starting again.
    await until(() => clients.every((c) => c.pending().length === 0), 'every message acknowledged', WAIT);
    const stored = await storedMessages(store.db, chatId);
    await until(
      () => clients.every((c) => stored.every((m) => c.view.has(m.id))),
      'every client caught up with the whole history',
      WAIT,
    );
    const keys = stored.map((m) => `${m.sender_id}/${m.client_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(stored).toHaveLength(clients.reduce((n, c) => n + c.attempted.length, 0));
    for (const c of clients) {
      const own = stored.filter((m) => m.sender_id === c.person.id);
      for (const [clientId, id] of c.confirmed)
        expect(own.filter((m) => m.client_id === clientId).map((m) => m.id)).toEqual([id]);
      expect(c.failures).toEqual([]);
      expect(c.rateLimited).toBe(0);
    }
    const api = await historyAfter(b, cy.token, chatId, 0);
    expect(api.map((m) => m.id)).toEqual(stored.map((m) => m.id));

    // Presence across processes again: Cy on B sees Ada and Bea (on A) in the room; Fay online on B shows online
    // on A, and offline once she leaves.
    await until(
      () => [ada.id, bea.id, cy.id].every((id) => cyC.inRoom.includes(id)),
      'Cy seeing Ada and Bea in the room',
      WAIT,
    );
    const fayRoom = await seedGroup(b, store.db, fay, [], 'Fay alone');
    const fayC = new RoomClient(b, fay, fayRoom, 'fay');
    await fayC.start();
    const fayOnline = async () =>
      (await a.get(`/api/users/@${fay.username}/`, ada.token)).body?.is_online === true;
    await until(fayOnline, 'Fay online on A while her socket is open on B', WAIT, 100);
    await fayC.stop();
    await until(async () => !(await fayOnline()), 'Fay offline on A once she left B', WAIT, 100);

    // Rate limits are shared again: Eve's burst split over A and B is held to one limit.
    const eveRoom = await seedGroup(a, store.db, eve, [], 'Eve alone');
    const eveA = await burst(a, eve, eveRoom, MESSAGE_LIMIT / 2);
    const eveB = await burst(b, eve, eveRoom, MESSAGE_LIMIT / 2 + 4);
    expect([...eveA.failures, ...eveB.failures]).toEqual([]);
    expect(eveA.confirmed.size + eveB.confirmed.size).toBeLessThanOrEqual(MESSAGE_LIMIT + 1);
    expect(eveB.rateLimited).toBeGreaterThanOrEqual(3);

    for (const c of clients) await c.stop();

    // The log: the outage in a few lines per process, not a line per message; nothing logged as an error.
    for (const proc of [a, b]) {
      const lines = (logs.get(proc) ?? []).map((l) => l.line);
      const notable = lines.filter((l) => typeof l.level === 'number' && l.level >= 40);
      const outageLines = lines.filter((l) => /redis/i.test(String(l.msg)));
      console.info(
        `[redis outage ${proc.label}] ${notable.length} warning lines; about Redis: ${outageLines
          .map(({ msg, level, redis, time, pid, hostname, ...rest }) => `${msg} ${JSON.stringify(rest)}`)
          .join(' | ')}`,
      );
      expect(proc.errors, `${proc.label}'s errors`).toEqual([]);
      expect(notable.length, `${proc.label}'s warnings`).toBeLessThanOrEqual(4);
      expect(outageLines.filter((l) => l.level === 40).length).toBeGreaterThanOrEqual(1);
      expect(outageLines.length, `${proc.label}'s lines about Redis`).toBeLessThanOrEqual(4);
    }
    const sent = clients.reduce((n, c) => n + c.attempted.length, 0);
    console.info(
      `[redis outage] ${sent} messages, ${clients.map((c) => `${c.label} reconnected ${c.reconnects}× (${c.closeCodes.join(',')})`).join('; ')}`,
    );
  }, 180_000);
});
