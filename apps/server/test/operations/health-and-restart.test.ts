import { CLOSE_SERVICE_RESTART } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { people, startChat } from '../chats/chat-helpers';
import { startTestApp } from '../helpers/test-app';
import { connectWs, joinRoom, NOTIFICATIONS_PATH, openNotifications } from '../helpers/ws-client';

// Running Parley like a service (issue 14): /healthz and /readyz, and a stop that lets clients move to another
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

describe('a graceful stop', () => {
  it('closes open sockets with 1012 and finishes the messages being written', async () => {
    const t = await startTestApp();
    let closed = false;
    try {
      const [ada, grace] = await people(t, 'Ada', 'Grace');
      const chatId = await startChat(t, ada.token, grace.user.id);
      const room = await joinRoom(t, ada.token, chatId);
      const { client: bell } = await openNotifications(t, grace.token);

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

  it('turns a socket away with 1012 while stopping', async () => {
    const t = await startTestApp();
    try {
      const [ada] = await people(t, 'Ada');
      t.ctx.lifecycle.stopping = true;
      const socket = await connectWs(t, NOTIFICATIONS_PATH, ada.token);
      expect((await socket.closed()).code).toBe(CLOSE_SERVICE_RESTART);
    } finally {
      t.ctx.lifecycle.stopping = false;
      await t.close();
    }
  });
});
