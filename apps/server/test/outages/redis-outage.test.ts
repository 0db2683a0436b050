import { describe, expect, it } from 'vitest';
import { type Person, seedPeople } from '../../src/test-support/seed-people';
import { historyAfter, seedGroup } from '../helpers/chat-data';
import { useOutageProcesses } from '../helpers/outage-processes';
import { expectStoredOnce, RoomClient, type RoomClientOptions } from '../helpers/room-client';
import type { ServerProcess } from '../helpers/server-process';
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
 * The web client's manners here: a closed socket is opened again after a second (at once after a 1012), and
 * what it knows may have gaps (frames lost while Redis was away), so it reads again the whole stretch it holds.
 */
const CLIENT: RoomClientOptions = { reconnectAfterMs: 1000, rereadHeld: true };

const readyz = async (proc: ServerProcess) => {
  const res = await proc.get('/readyz');
  return { status: res.status, body: res.body };
};

/** `count` messages written at once by a client of its own in a room of its own; waits for every answer. */
async function burst(proc: ServerProcess, person: Person, chatId: string, count: number) {
  const client = new RoomClient(proc, person, chatId, `burst${person.id}`, CLIENT);
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
  // Info: the line saying Redis answers again, too.
  const processes = useOutageProcesses('redis', { LOG_LEVEL: 'info' });

  it('keeps sending and delivering, then catches every client up once Redis is back', async () => {
    const { store, proxy, a, b, log } = processes();
    const [ada, bea, cy, dee, eve, fay] = await seedPeople(store.db, 6, 'outage');
    if (!ada || !bea || !cy || !dee || !eve || !fay) throw new Error('people not seeded');
    const chatId = await seedGroup(a, store.db, ada, [bea, cy], 'Outage');
    // Ada and Bea on A, Cy on B.
    const clients = [
      new RoomClient(a, ada, chatId, 'ada', CLIENT),
      new RoomClient(a, bea, chatId, 'bea', CLIENT),
      new RoomClient(b, cy, chatId, 'cy', CLIENT),
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
      const probeId = await adaC.writeConfirmed(WAIT);
      await until(() => cyC.liveIds.includes(probeId), "Cy hearing Ada's probe live on B", WAIT);
    } finally {
      clearInterval(writing);
    }

    // Every message acknowledged, stored once, and every client caught up without starting again.
    const stored = await expectStoredOnce(store.db, chatId, clients, WAIT);
    await until(
      () => clients.every((c) => stored.every((m) => c.view.has(m.id))),
      'every client caught up with the whole history',
      WAIT,
    );
    for (const c of clients) {
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
    const fayC = new RoomClient(b, fay, fayRoom, 'fay', CLIENT);
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
      const lines = log(proc);
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
