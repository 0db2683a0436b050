import { CLOSE_TRY_AGAIN_LATER, SOCKET_ERRORS } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DATABASE_UNAVAILABLE } from '../../src/platform/errors';
import { seedPeople } from '../../src/test-support/seed-people';
import { historyAfter, seedGroup } from '../helpers/chat-data';
import { useOutageProcesses } from '../helpers/outage-processes';
import { expectStoredOnce, RoomClient, type RoomClientOptions } from '../helpers/room-client';
import { roomPath, type ServerProcess } from '../helpers/server-process';
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
 * The web client's manners here: a message refused with an error frame is sent again (Retry), what others send
 * is acknowledged (read_messages) as an open room does, and a closed socket is opened again every half second.
 */
const CLIENT: RoomClientOptions = {
  reconnectAfterMs: 500,
  retryRefusedAfterMs: RETRY_AFTER_MS,
  markRead: true,
};

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
  // Debug: every request's line (with its status) and the line saying PostgreSQL answers again.
  const processes = useOutageProcesses('postgres', { LOG_LEVEL: 'debug' });

  it('answers 503 meanwhile, loses and doubles no message, and serves again without a restart', async () => {
    const { store, proxy, a, b, log } = processes();
    const [ada, bea] = await seedPeople(store.db, 2, 'pgrestart');
    if (!ada || !bea) throw new Error('people not seeded');
    const chatId = await seedGroup(a, store.db, ada, [bea], 'Restart');
    // Ada on A, Bea on B.
    const adaC = new RoomClient(a, ada, chatId, 'ada', CLIENT);
    const beaC = new RoomClient(b, bea, chatId, 'bea', CLIENT);
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
      const probeId = await beaC.writeConfirmed(WAIT);
      await until(() => adaC.view.has(probeId), "Ada hearing Bea's probe", WAIT);
    } finally {
      clearInterval(writing);
    }

    // Every message acknowledged in the end (after its resends), stored exactly once, and known to both.
    const stored = await expectStoredOnce(store.db, chatId, clients, WAIT);
    for (const c of clients) {
      const own = stored.filter((m) => m.sender_id === c.person.id);
      expect(own.map((m) => m.client_id).sort()).toEqual(c.attempted.map((m) => m.clientId).sort());
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
      const lines = log(proc);
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
