import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { CLOSE_SERVICE_RESTART } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { people, startChat } from '../chats/chat-helpers';
import { freePort } from '../helpers/server-process';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { until } from '../helpers/waits';
import { joinRoom, NOTIFICATIONS_PATH, openNotifications, wsUrl } from '../helpers/ws-client';

// Running Parley like a service: /healthz and /readyz, and a stop that lets clients move to another
// process at once without losing what was being written.

describe('/healthz and /readyz', () => {
  it('say alive and ready, and not ready once the process is stopping', async () => {
    const t = await startTestApp();
    try {
      expect(await t.get('/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(await t.get('/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
      t.ctx.lifecycle.stopping = true;
      expect(await t.get('/readyz')).toMatchObject({ status: 503, body: { status: 'stopping' } });
      expect((await t.get('/healthz')).status).toBe(200);
      t.ctx.lifecycle.stopping = false;
      // The database not answering makes the process unready, not dead.
      await t.ctx.db.destroy();
      expect(await t.get('/readyz')).toMatchObject({ status: 503, body: { status: 'unavailable' } });
      expect((await t.get('/healthz')).status).toBe(200);
    } finally {
      await t.close().catch(() => {});
    }
  });
});

// A Redis of the test's own, on a free port, that it can kill, restart and freeze (SIGSTOP): the shared one of
// the PostgreSQL pass must not be disturbed. Wherever redis-server is installed, in either pass.
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(true)).once('error', () => resolve(false));
      socket.once('close', () => socket.destroy());
      setTimeout(() => socket.end(), 50);
    });
  await until(accepts, `redis-server on port ${port}`, 10_000, 50);
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const readyStatus = async (t: TestApp) => (await t.get('/readyz')).status;

describe.skipIf(!hasRedisServer)('/readyz with Redis', () => {
  it('answers 503 while Redis is down or does not answer, and 200 again once it does', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const t = await startTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    try {
      await until(async () => (await readyStatus(t)) === 200, 'ready with Redis up', 10_000, 100);

      // Down: the connection is refused.
      await stopRedis(redis);
      expect(await t.get('/readyz')).toMatchObject({ status: 503, body: { status: 'unavailable' } });
      expect((await t.get('/healthz')).status).toBe(200);
      redis = await startRedis(port);
      await until(async () => (await readyStatus(t)) === 200, 'ready once Redis is back', 15_000, 100);

      // Frozen: the connection stays open and nothing answers; /readyz does not wait for it forever.
      redis.kill('SIGSTOP');
      const started = Date.now();
      expect(await t.get('/readyz')).toMatchObject({ status: 503, body: { status: 'unavailable' } });
      expect(Date.now() - started).toBeLessThan(5000);
      redis.kill('SIGCONT');
      await until(async () => (await readyStatus(t)) === 200, 'ready once Redis answers', 15_000, 100);
    } finally {
      redis.kill('SIGCONT');
      await t.close().catch(() => {});
      await stopRedis(redis);
    }
  }, 60_000);
});

/** Ada in her room with Grace, Grace on her notification socket: the sockets a stop has to close. */
async function adaInRoomGraceListening(t: TestApp) {
  const [ada, grace] = await people(t, 'Ada', 'Grace');
  const chatId = await startChat(t, ada.token, grace.user.id);
  const room = await joinRoom(t, ada.token, chatId);
  const { client: bell } = await openNotifications(t, grace.token);
  return { ada, chatId, room, bell };
}

describe('a graceful stop', () => {
  it('closes open sockets with 1012 and finishes the messages being written', async () => {
    const t = await startTestApp();
    let closed = false;
    try {
      const { ada, chatId, room, bell } = await adaInRoomGraceListening(t);

      const sending = t.ctx.messages.send(ada.user.id, chatId, { body: 'written before the stop' });
      const stopping = t.close();
      closed = true;
      const [written] = await Promise.all([sending, stopping]);
      expect(written).toMatchObject({ created: true, message: { body: 'written before the stop' } });
      expect((await room.closed()).code).toBe(CLOSE_SERVICE_RESTART);
      expect((await bell.closed()).code).toBe(CLOSE_SERVICE_RESTART);
    } finally {
      if (!closed) await t.close();
    }
  });

  it('closes the database only after its sockets have closed and their frames and close handling are done', async () => {
    const t = await startTestApp();
    let closed = false;
    try {
      const { room } = await adaInRoomGraceListening(t);
      // What each socket's work came to once the process had stopped: a rejection here is work that ran on a
      // closed database or Redis (the failure CI saw in a rolling restart).
      const outcomes: string[] = [];
      const record =
        <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) =>
        async (...args: A) => {
          try {
            const result = await fn(...args);
            outcomes.push(`${name} ok`);
            return result;
          } catch (err) {
            outcomes.push(`${name} failed: ${(err as Error).message}`);
            throw err;
          }
        };
      const { users, messages } = t.ctx;
      users.markSeen = record('markSeen', users.markSeen.bind(users));
      messages.send = record('send', messages.send.bind(messages));

      // Ada sends, then her client stops reading: it answers the 1012 close only when it is cut off.
      room.ws.send(
        JSON.stringify({ type: 'chat_message', body: 'sent as the stop began', client_id: 'late-1' }),
      );
      (room.ws as unknown as { _socket: net.Socket })._socket.pause();
      closed = true;
      await t.close();
      expect(outcomes.sort()).toEqual(['markSeen ok', 'markSeen ok', 'send ok']);
    } finally {
      if (!closed) await t.close();
    }
  });

  it('refuses a new socket before the handshake (503) while stopping', async () => {
    const t = await startTestApp();
    try {
      const [ada] = await people(t, 'Ada');
      t.ctx.lifecycle.stopping = true;
      const status = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(wsUrl(t, NOTIFICATIONS_PATH, ada.token));
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.on('error', () => {});
        ws.on('open', () => reject(new Error('the socket opened while the process was stopping')));
      });
      expect(status).toBe(503);
    } finally {
      t.ctx.lifecycle.stopping = false;
      await t.close();
    }
  });
});
