import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { createDb, type Db } from '../../db/database';
import { MemoryBus } from '../../platform/bus';
import { Lifecycle } from '../../platform/lifecycle';
import { MemoryPresence } from '../../platform/presence';
import { capturedLog } from '../../test-support/captured-log';
import { fakeClient } from '../../test-support/fake-socket';
import { memoryDb } from '../../test-support/messages-world';
import { UsersService } from '../accounts/users.service';
import { Hub } from './hub';
import { watch } from './socket-connection';

// A socket's close writes its user's last seen; when the database is away, closing sockets must not log an
// error each: the outage is told once by the database layer.

const dbs: Db[] = [];

afterEach(async () => {
  await Promise.all(dbs.splice(0).map((db) => db.destroy()));
});

/** A local port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Opens `count` sockets, one person each, closes them all and waits for their close handling. */
async function closeSockets(db: Db, log: FastifyBaseLogger, count: number): Promise<void> {
  const lifecycle = new Lifecycle();
  const deps = {
    config: loadConfig({}),
    lifecycle,
    presence: new MemoryPresence(),
    hub: new Hub({ bus: new MemoryBus() }),
    users: new UsersService(db),
  };
  const sockets = [];
  for (let userId = 1; userId <= count; userId++) {
    const { client, ws } = fakeClient([], `socket ${userId}`, { userId, sessionId: userId });
    expect(await watch(deps, client, { requestId: `req-${userId}`, log: () => log })).toBe(true);
    sockets.push(ws);
  }
  for (const ws of sockets) ws.emit('close');
  await lifecycle.settled();
}

describe('a closing socket', () => {
  it('logs no error per socket while the database cannot be reached, only the outage once', async () => {
    const { log, lines } = capturedLog();
    const url = `postgres://parley@127.0.0.1:${await closedPort()}/parley`;
    const { db } = createDb(loadConfig({ DATABASE_URL: url }), undefined, log as FastifyBaseLogger);
    dbs.push(db);

    await closeSockets(db, log as FastifyBaseLogger, 5);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    expect(lines.map((l) => l.msg)).toEqual(['PostgreSQL does not answer; requests get 503 until it does']);
  });

  it('still logs any other failure of its close handling as an error', async () => {
    const { log, lines } = capturedLog();
    const db = await memoryDb();
    // A database already closed: the last-seen update fails, and not for an outage.
    await db.destroy();

    await closeSockets(db, log as FastifyBaseLogger, 2);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'socket close handling failed'],
      [50, 'socket close handling failed'],
    ]);
  });
});
