import path from 'node:path';
import { CLOSE_AUTH_FAILED, CLOSE_NOT_FOUND, CLOSE_TRY_AGAIN_LATER, SOCKET_ERRORS } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DATABASE_UNAVAILABLE } from '../../src/platform/errors';
import { type Person, seedPeople } from '../../src/test-support/seed-people';
import { historyAfter, seedGroup, storedMessages } from '../helpers/chat-data';
import { type CuttableProxy, startCuttableProxy, throughProxy } from '../helpers/cuttable-proxy';
import { LoadSocket } from '../helpers/load-socket';
import { killAll, roomPath, type ServerProcess, spawnServer } from '../helpers/server-process';
import { createStore, type ServerStore } from '../helpers/server-store';
import type { ApiResponse, Json } from '../helpers/test-app';
import { twoProcessesEnabled } from '../helpers/two-processes';
import { sleep, until, withTimeout } from '../helpers/waits';

// PostgreSQL restarts (or fails over) while two processes serve one conversation and people keep sending. The
// machine's shared PostgreSQL keeps running: the processes reach it through a proxy the test cuts, which resets
// every connection and refuses new ones, as a restart does. Neither process exits; requests meanwhile answer
// 503 with a sentence, never a 500 or a stack; every message sent is refused (and resent, as the web client's
// Retry and its reconnection do) or acknowledged, and in the end stored exactly once; both processes serve
// again without a restart.

/** How long PostgreSQL is away at least (a real restart takes 2 to 10 s). */
const OUTAGE_MS = 4000;
/** Each person writes a message this often (the socket limit is 20 per 10 s per person, resends included). */
const WRITE_EVERY_MS = 1000;
/** A refused message is sent again this long after its refusal (a person pressing Retry). */
const RETRY_AFTER_MS = 500;
const WAIT = 30_000;

/**
 * A room client as the web client behaves: pending by client_id, merged by id; a message refused with an error
 * frame is sent again (Retry); it reconnects when its socket closes, reads what it missed and resends what is
 * unconfirmed; it acknowledges what others send (read_messages), as an open room does.
 */
class RoomClient {
  seq = 0;
  readonly attempted: { clientId: string; body: string }[] = [];
  readonly confirmed = new Map<string, number>();
  /** Every message this client knows (live and caught up), by id. */
  readonly view = new Map<number, Json>();
  /** Error frames naming a message, other than rate_limited: each was sent again. */
  readonly refusals: Json[] = [];
  /** Error frames naming no message. */
  readonly otherErrors: Json[] = [];
  rateLimited = 0;
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

  get lastId(): number {
    let max = 0;
    for (const id of this.view.keys()) if (id > max) max = id;
    return max;
  }

  pending() {
    return this.attempted.filter((m) => !this.confirmed.has(m.clientId));
  }

  get isOpen(): boolean {
    return this.ready && !!this.socket?.isOpen;
  }

  /** Opens the room socket; from then on it reconnects by itself. */
  async start(): Promise<void> {
    const from = this.lastId;
    const socket = await LoadSocket.joinRoom(this.proc, this.chatId, this.person.token, (f) =>
      this.onFrame(f),
    );
    this.socket = socket;
    void socket.closed.then(({ code }) => {
      this.ready = false;
      this.closeCodes.push(code);
      if (this.stopped || code === CLOSE_AUTH_FAILED || code === CLOSE_NOT_FOUND) return;
      void this.reconnect();
    });
    // After every open, as the web client does: what arrived while away, then what waits unconfirmed.
    for (const m of await historyAfter(this.proc, this.person.token, this.chatId, from))
      this.view.set(m.id, m);
    for (const m of this.pending()) this.send(m);
    this.ready = true;
  }

  private async reconnect(): Promise<void> {
    while (!this.stopped) {
      await sleep(500);
      try {
        await this.start();
        this.reconnects += 1;
        return;
      } catch {
        // The ticket or the catch-up was refused (the database is away): try again.
        this.socket?.ws.terminate();
      }
    }
  }

  private onFrame(f: Json): void {
    if (f.type === 'error') {
      if (f.code === 'rate_limited') this.rateLimited += 1;
      else if (f.client_id) this.refusals.push(f);
      else this.otherErrors.push(f);
      if (typeof f.client_id === 'string') this.retryLater(f.client_id);
      return;
    }
    if (f.type !== 'chat_message') return;
    const m = f.message;
    this.view.set(m.id, m);
    if (m.sender === this.person.id && f.client_id) this.confirmed.set(f.client_id, m.id);
    else this.socket?.send({ type: 'read_messages', message_ids: [m.id] });
  }

  private retryLater(clientId: string): void {
    setTimeout(() => {
      const m = this.attempted.find((a) => a.clientId === clientId);
      if (m && !this.confirmed.has(clientId) && this.isOpen) this.send(m);
    }, RETRY_AFTER_MS);
  }

  private send(m: { clientId: string; body: string }): void {
    this.socket?.send({ type: 'chat_message', body: m.body, client_id: m.clientId });
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
    await this.socket?.close();
  }
}

/** Every log line a process writes, parsed (pino JSON). */
function captureLog(proc: ServerProcess): Json[] {
  const lines: Json[] = [];
  let partial = '';
  const read = (text: string) => {
    const parts = (partial + text).split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) {
      if (!part.startsWith('{')) continue;
      try {
        lines.push(JSON.parse(part));
      } catch {
        // Not a log line.
      }
    }
  };
  proc.child.stdout?.setEncoding('utf8').on('data', read);
  proc.child.stderr?.setEncoding('utf8').on('data', read);
  return lines;
}

/** A request to `proc`; when it cannot be answered because the process is gone, an error that says so. */
async function ask(proc: ServerProcess, method: 'GET' | 'POST', urlPath: string, token?: string) {
  try {
    return await proc.request(method, urlPath, { token, ...(method === 'POST' ? { json: {} } : {}) });
  } catch (err) {
    // A connection reset by a process that is dying: its exit is heard a moment later.
    const exit = await Promise.race([proc.exited, sleep(5000).then(() => null)]);
    if (!exit) throw err;
    throw new Error(`${proc.label} exited (${JSON.stringify(exit)}); its last lines:\n${proc.output()}`);
  }
}

/** What a request during the outage must look like: 503, the sentence as JSON, nothing of the server's insides. */
function expectUnavailable(res: ApiResponse, what: string): void {
  expect(res.status, `${what}: ${res.text}`).toBe(503);
  expect(res.headers.get('content-type') ?? '', what).toContain('application/json');
  expect(res.body, what).toEqual({ detail: DATABASE_UNAVAILABLE });
}

/** The code a socket opened at `url` is closed with. */
function closeCodeOf(url: string): Promise<number> {
  const ws = new WebSocket(url);
  ws.on('error', () => {});
  return withTimeout(
    new Promise<number>((resolve) => ws.on('close', (code) => resolve(code))),
    WAIT,
    'the socket closing',
  );
}

describe.skipIf(!twoProcessesEnabled)('a PostgreSQL restart under two processes', () => {
  let store: ServerStore;
  let proxy: CuttableProxy;
  let a: ServerProcess;
  let b: ServerProcess;
  const logs = new Map<ServerProcess, Json[]>();

  beforeAll(async () => {
    store = await createStore({ postgresUrl: process.env.DATABASE_URL });
    const target = new URL(store.databaseUrl as string);
    proxy = await startCuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const spawn = async (label: string) => {
      const proc = await spawnServer({
        store,
        redisUrl: process.env.REDIS_URL,
        label,
        dataDir: path.join(store.dataDir, label.toLowerCase()),
        // Debug: every request's line (with its status) and the line saying PostgreSQL answers again.
        env: { DATABASE_URL: throughProxy(store.databaseUrl as string, proxy), LOG_LEVEL: 'debug' },
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

  it('answers 503 meanwhile, loses and doubles no message, and serves again without a restart', async () => {
    const [ada, bea] = await seedPeople(store.db, 2, 'pgrestart');
    if (!ada || !bea) throw new Error('people not seeded');
    const chatId = await seedGroup(a, store.db, ada, [bea], 'Restart');
    // Ada on A, Bea on B.
    const adaC = new RoomClient(a, ada, chatId, 'ada');
    const beaC = new RoomClient(b, bea, chatId, 'bea');
    const clients = [adaC, beaC];
    for (const c of clients) await c.start();
    const first = adaC.write();
    await until(() => beaC.view.has(adaC.confirmed.get(first.clientId) ?? -1), 'Bea hearing Ada', WAIT);

    const writing = setInterval(() => {
      for (const c of clients) c.write();
    }, WRITE_EVERY_MS);
    try {
      await until(() => clients.every((c) => c.confirmed.size >= 2), 'messages flowing before the cut', WAIT);
      proxy.cut();
      const cutAt = Date.now();

      // Meanwhile: requests on both processes answer 503 with the sentence (never 500), and /readyz 503.
      for (const proc of [a, b]) {
        let last = '';
        await until(
          async () => {
            const res = await ask(proc, 'GET', '/api/chats/my/', ada.token);
            last = `${res.status} ${res.text.slice(0, 200)}`;
            return res.status === 503;
          },
          `${proc.label} answering 503 while PostgreSQL is away`,
          WAIT,
          100,
        ).catch((err) => {
          throw new Error(`${err.message}; the last answer: ${last}`);
        });
        expectUnavailable(
          await ask(proc, 'GET', '/api/chats/my/', ada.token),
          `${proc.label} GET /api/chats/my/`,
        );
        expectUnavailable(
          await ask(proc, 'GET', `/api/chats/${chatId}/messages/?after=0`, bea.token),
          `${proc.label} GET history`,
        );
        expectUnavailable(await ask(proc, 'POST', '/api/ws/ticket/', bea.token), `${proc.label} POST ticket`);
        expect((await ask(proc, 'GET', '/readyz')).status, `${proc.label} /readyz`).toBe(503);
        // A socket opening now (its credential cannot be checked) is told to come back, not that it is refused.
        expect(await closeCodeOf(proc.wsUrl(roomPath(chatId), bea.token)), `${proc.label} room socket`).toBe(
          CLOSE_TRY_AGAIN_LATER,
        );
      }
      // People kept sending: at least one message was refused and is waiting to be sent again.
      await until(
        () => clients.some((c) => c.refusals.length > 0 || !c.isOpen),
        'a message refused (or a socket closed) while PostgreSQL is away',
        WAIT,
      );
      await sleep(Math.max(0, OUTAGE_MS - (Date.now() - cutAt)));
      expect(proxy.open(), 'connections through the cut proxy').toBe(0);
      expect([a.running, b.running], 'both processes alive during the outage').toEqual([true, true]);
      proxy.restore();

      for (const proc of [a, b])
        await until(
          async () => (await ask(proc, 'GET', '/readyz')).status === 200,
          `${proc.label} ready once PostgreSQL is back`,
          WAIT,
          200,
        );
      // Both serve again: a request each, and a message from each side heard on the other.
      for (const proc of [a, b])
        expect((await ask(proc, 'GET', '/api/chats/my/', ada.token)).status).toBe(200);
      await until(() => clients.every((c) => c.isOpen), 'every client connected', WAIT);
      const probe = beaC.write();
      await until(() => beaC.confirmed.has(probe.clientId), "Bea's probe acknowledged", WAIT);
      const probeId = beaC.confirmed.get(probe.clientId) as number;
      await until(() => adaC.view.has(probeId), "Ada hearing Bea's probe", WAIT);
    } finally {
      clearInterval(writing);
    }

    // Every message acknowledged in the end (after its resends), stored exactly once, and known to both.
    await until(() => clients.every((c) => c.pending().length === 0), 'every message acknowledged', WAIT);
    const stored = await storedMessages(store.db, chatId);
    const keys = stored.map((m) => `${m.sender_id}/${m.client_id}`);
    expect(new Set(keys).size, 'no message stored twice').toBe(keys.length);
    expect(stored).toHaveLength(clients.reduce((n, c) => n + c.attempted.length, 0));
    for (const c of clients) {
      const own = stored.filter((m) => m.sender_id === c.person.id);
      expect(own.map((m) => m.client_id).sort()).toEqual(c.attempted.map((m) => m.clientId).sort());
      for (const [clientId, id] of c.confirmed)
        expect(own.filter((m) => m.client_id === clientId).map((m) => m.id)).toEqual([id]);
      for (const r of c.refusals) expect(r.message, `${c.label}'s refusal`).toBe(SOCKET_ERRORS.failed);
      expect(c.otherErrors, `${c.label}'s error frames naming no message`).toEqual([]);
    }
    await until(
      () => clients.every((c) => stored.every((m) => c.view.has(m.id))),
      'both clients knowing the whole history',
      WAIT,
    );
    const api = await historyAfter(b, bea.token, chatId, 0);
    expect(api.map((m) => m.id)).toEqual(stored.map((m) => m.id));
    for (const c of clients) await c.stop();

    // No process exited, none answered 500, and whatever the log says at warning or above is the outage: nothing
    // else failed, and no background chore logged its runs that failed meanwhile.
    expect([a.running, b.running], 'both processes alive').toEqual([true, true]);
    for (const proc of [a, b]) {
      const lines = logs.get(proc) ?? [];
      const notable = lines.filter((l) => l.level >= 40);
      const byMessage = new Map<string, number>();
      for (const l of notable) byMessage.set(l.msg, (byMessage.get(l.msg) ?? 0) + 1);
      console.info(
        `[postgres restart ${proc.label}] warnings or worse: ${JSON.stringify(Object.fromEntries(byMessage))}; ${lines
          .filter((l) => /PostgreSQL/.test(String(l.msg)))
          .map(({ msg, level, time, pid, hostname, ...rest }) => `${msg} ${JSON.stringify(rest)}`)
          .join(' | ')}`,
      );
      expect(
        lines.filter((l) => l.msg === 'request' && l.status >= 500 && l.status !== 503),
        `${proc.label}'s requests answered with a 5xx other than 503`,
      ).toEqual([]);
      // The outage is told by the database layer, once: not once per request or frame it refused.
      expect(
        lines.filter((l) => l.msg === 'PostgreSQL does not answer; requests get 503 until it does').length,
        `${proc.label} tells the outage once`,
      ).toBe(1);
      expect(
        lines.filter((l) => l.msg === 'PostgreSQL answers again').length,
        `${proc.label} tells the return once`,
      ).toBe(1);
      const outage = (l: Json) => /PostgreSQL/.test(String(l.msg));
      expect(
        notable.filter((l) => !outage(l)),
        `${proc.label}'s warnings and errors other than the outage`,
      ).toEqual([]);
      expect(
        notable.filter((l) => l.job && /failed$/.test(String(l.msg))),
        `${proc.label}'s background chores failing`,
      ).toEqual([]);
    }
    const sent = clients.reduce((n, c) => n + c.attempted.length, 0);
    console.info(
      `[postgres restart] ${sent} messages; ${clients
        .map(
          (c) =>
            `${c.label}: ${c.refusals.length} refused and resent, reconnected ${c.reconnects}× (${c.closeCodes.join(',')})`,
        )
        .join('; ')}`,
    );
  }, 180_000);
});
