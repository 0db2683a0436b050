import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLOSE_SERVICE_RESTART } from '@parley/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { type Person, seedPeople } from '../../src/test-support/seed-people';
import { historyAfter, seedGroup, storedMessages } from '../helpers/chat-data';
import { isPostgresUrl } from '../helpers/pg-schema';
import { Sender } from '../helpers/room-sender';
import { Endpoint, freePort, killAll, type ServerProcess, spawnServer } from '../helpers/server-process';
import { createStore, type ServerStore } from '../helpers/server-store';
import { sleep, until } from '../helpers/waits';

// A rolling restart: two Parley processes on PostgreSQL and Redis behind nginx, configured by the
// deploy/ example, while people chat through nginx. Each process in turn gets SIGTERM (it closes its sockets
// with 1012 and finishes the group commit in flight), and a new one takes its place on the same port. The
// clients behave as the web client does: reconnect at once on 1012 (nginx sends them to the other process),
// resend what was pending with the same client_ids, catch up with ?after=. Nothing is lost or doubled.

const pgUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : undefined;
const redisUrl = process.env.REDIS_URL;
const enabled = !!pgUrl && !!redisUrl;
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const here = path.dirname(fileURLToPath(import.meta.url));
const deployConf = path.resolve(here, '../../../../deploy/nginx.conf');

const SENDERS = 6;
const INTERVAL_MS = 60;

/** deploy/nginx.conf with this test's ports, inside the few lines a standalone nginx needs around it. */
async function startNginx(ports: [number, number]): Promise<{ url: string; stop: () => Promise<void> }> {
  if (!fs.existsSync(NGINX)) {
    throw new Error(`nginx is needed for this test (apt-get install nginx-light), not found at ${NGINX}`);
  }
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parley-nginx-'));
  const port = await freePort();
  const site = (await fsp.readFile(deployConf, 'utf8'))
    .replace('server 127.0.0.1:8001', `server 127.0.0.1:${ports[0]}`)
    .replace('server 127.0.0.1:8002', `server 127.0.0.1:${ports[1]}`)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  expect(site).toContain(`127.0.0.1:${ports[1]}`);
  const conf = `
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${site}
}
`;
  await fsp.writeFile(path.join(dir, 'nginx.conf'), conf);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await until(
    () =>
      fetch(`${url}/api/health`)
        .then((r) => r.status === 200)
        .catch(() => false),
    'nginx answering',
    15_000,
  );
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** Keeps a sender in the room: after a close it reconnects through the gateway, resends and catches up. */
function stayConnected(
  s: Sender,
  gateway: Endpoint,
  closes: number[],
  stopped: () => boolean,
): Promise<void> {
  return (async () => {
    while (!stopped()) {
      const socket = s.socket;
      if (socket) {
        const { code } = await Promise.race([
          socket.closed,
          until(stopped, 'stop', 600_000).then(() => ({ code: 0 })),
        ]);
        if (stopped()) return;
        closes.push(code);
      }
      // At once on 1012, as the web client does; a refusal (the other process is starting) is tried again.
      for (;;) {
        try {
          await s.connect(gateway);
          await s.resendAndCatchUp(gateway);
          break;
        } catch {
          if (stopped()) return;
          await sleep(100);
        }
      }
    }
  })();
}

describe.skipIf(!enabled)('a rolling restart behind nginx (PostgreSQL + Redis)', () => {
  let store: ServerStore | null = null;
  let nginx: { stop: () => Promise<void> } | null = null;

  afterAll(async () => {
    await nginx?.stop();
    await killAll();
    await store?.close();
  });

  it('restarts each process in turn while people chat, losing and doubling nothing', async () => {
    store = await createStore({ postgresUrl: pgUrl });
    const db = store.db;
    const env = { MESSAGE_RATE_LIMIT: '1000' };
    const start = (label: string, port?: number) =>
      spawnServer({
        store: store as ServerStore,
        redisUrl,
        label,
        port,
        env,
        dataDir: path.join(store!.dataDir, label),
      });
    const procs: ServerProcess[] = [await start('a'), await start('b')];
    const ports: [number, number] = [procs[0]!.port, procs[1]!.port];
    const proxy = await startNginx(ports);
    nginx = proxy;
    const gateway = new Endpoint(proxy.url, 'nginx');

    const people = await seedPeople(db, SENDERS, 'rolling');
    const chatId = await seedGroup(gateway, db, people[0] as Person, people.slice(1), 'Rolling');
    const senders = people.map((p, i) => new Sender(p, i, chatId));
    for (const s of senders) await s.connect(gateway);

    let stopped = false;
    const closes: number[] = [];
    const keepers = senders.map((s) => stayConnected(s, gateway, closes, () => stopped));
    const writer = setInterval(() => {
      for (const s of senders) s.write();
    }, INTERVAL_MS);

    try {
      for (const [i, label] of ['a', 'b'].entries()) {
        // Some traffic on the current pair first, then the restart of one of them.
        const before = senders.map((s) => s.confirmed.size);
        await until(
          () => senders.every((s, k) => s.confirmed.size >= (before[k] as number) + 5),
          `traffic before restarting ${label}`,
          30_000,
        );
        const old = procs[i] as ServerProcess;
        const exit = await old.stop();
        expect(exit, `${label} stops cleanly on SIGTERM`).toEqual({ code: 0, signal: null });
        expect(old.errors).toEqual([]);
        procs[i] = await start(`${label}2`, old.port);
      }
      // Everyone is back and writing through the new pair.
      const after = senders.map((s) => s.confirmed.size);
      await until(
        () => senders.every((s, k) => s.confirmed.size >= (after[k] as number) + 5),
        'traffic after both restarts',
        30_000,
      );
    } finally {
      clearInterval(writer);
    }
    await until(() => senders.every((s) => s.pending().length === 0), 'every message confirmed', 30_000);
    const stored = await storedMessages(db, chatId);
    await until(
      async () => {
        for (const s of senders)
          for (const m of await historyAfter(gateway, s.person.token, chatId, s.lastId)) s.view.set(m.id, m);
        return senders.every((s) => stored.every((m) => s.view.has(m.id)));
      },
      'every client has the whole history',
      20_000,
    );
    stopped = true;
    await Promise.all(senders.map((s) => s.socket?.close()));
    await Promise.all(keepers);

    // Sockets of the restarted processes were closed with 1012 (service restart), none dropped unannounced.
    expect(closes.length).toBeGreaterThan(0);
    expect(
      closes.every((c) => c === CLOSE_SERVICE_RESTART),
      `close codes ${closes.join(',')}`,
    ).toBe(true);
    // Nothing doubled: one row per (sender, client_id); nothing lost: every attempted message is stored.
    const keys = stored.map((m) => `${m.sender_id}/${m.client_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    const attempted = senders.reduce((n, s) => n + s.attempted.length, 0);
    expect(stored).toHaveLength(attempted);
    for (const s of senders) {
      const own = stored.filter((m) => m.sender_id === s.person.id);
      expect(own.map((m) => m.client_id)).toEqual(s.attempted.map((m) => m.clientId));
      expect([...s.view.keys()].sort((x, y) => x - y)).toEqual(stored.map((m) => m.id));
    }
    for (const p of procs) expect(p.errors).toEqual([]);
    console.info(
      `[rolling restart] ${stored.length} messages from ${SENDERS} people, ${closes.length} sockets moved with 1012, ` +
        `${senders.reduce((n, s) => n + s.resent.size, 0)} resent`,
    );
  }, 180_000);
});
