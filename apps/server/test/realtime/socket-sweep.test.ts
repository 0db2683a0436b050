import { once } from 'node:events';
import { CLOSE_AUTH_FAILED } from '@parley/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { SocketSweep, type SocketSweepDeps } from '../../src/modules/realtime/hub';
import { people, startChat } from '../chats/chat-helpers';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { joinRoom, openNotifications, roomPath, ticketFor, wsUrl } from '../helpers/ws-client';

// One ping-and-session sweep for every socket of the process (DESIGN §6;
// bench/findings/2026-11-21-what-a-message-cost.md, finding 9): sockets whose session has ended are closed with
// 4001, sockets that stop answering pings are dropped, and all sessions are checked with one look-up per round.
// The app's own sweep runs every 30 s; these tests run their own.

const app = useTestApp();
const sweeps: SocketSweep[] = [];
afterEach(async () => {
  for (const s of sweeps.splice(0)) await s.stop();
});

function sweepOf(t: TestApp, intervalMs?: number, sessions: SocketSweepDeps['sessions'] = t.ctx.sessions) {
  const sweep = new SocketSweep({ hub: t.ctx.hub, sessions, log: t.ctx.log, intervalMs });
  sweeps.push(sweep);
  return sweep;
}

/** Ends a session in the database only, as expiry does: no event closes its sockets. */
async function expireSessions(t: TestApp, userId: number) {
  await t.ctx.db
    .updateTable('sessions')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('user_id', '=', userId)
    .execute();
}

describe('socket sweep', () => {
  it('closes, on its timer, the sockets of a session that has ended with 4001 and keeps the others', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const adaRoom = await joinRoom(app(), ada.token, chatId);
    const adaNotes = (await openNotifications(app(), ada.token)).client;
    const graceRoom = await joinRoom(app(), grace.token, chatId);

    await expireSessions(app(), ada.user.id);
    sweepOf(app(), 250).start();
    expect((await adaRoom.closed(3000)).code).toBe(CLOSE_AUTH_FAILED);
    expect((await adaNotes.closed(3000)).code).toBe(CLOSE_AUTH_FAILED);

    // Grace's socket answered every ping and her session lives: still there, still served.
    await graceRoom.next('in_chat_count', (f) => f.count === 1);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(graceRoom.isOpen).toBe(true);
    graceRoom.send({ type: 'chat_message', body: 'still here', client_id: 'g-1' });
    expect((await graceRoom.next('chat_message')).message.body).toBe('still here');
    await graceRoom.close();
  });

  it('checks every socket’s session in one look-up per round', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const clients = [
      await joinRoom(app(), ada.token, chatId),
      await joinRoom(app(), ada.token, chatId),
      (await openNotifications(app(), ada.token)).client,
      await joinRoom(app(), grace.token, chatId),
    ];
    const liveAmong = vi.fn((ids: number[]) => app().ctx.sessions.liveAmong(ids));
    const sweep = sweepOf(app(), undefined, { liveAmong });
    await sweep.sweep();
    expect(liveAmong).toHaveBeenCalledTimes(1);
    expect(liveAmong.mock.calls[0]?.[0]).toHaveLength(clients.length);
    expect(new Set(liveAmong.mock.calls[0]?.[0]).size).toBe(2);
    for (const c of clients) expect(c.isOpen).toBe(true);

    // Nothing open, nothing asked.
    await Promise.all(clients.map((c) => c.close()));
    await sweep.sweep();
    expect(liveAmong).toHaveBeenCalledTimes(1);
  });

  it('drops a socket that did not answer the previous round’s ping', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const graceRoom = await joinRoom(app(), grace.token, chatId);
    // A client that never answers pings (a peer gone without a FIN looks the same to the server).
    const silent = new WebSocket(wsUrl(app(), roomPath(chatId), await ticketFor(app(), ada.token)), {
      autoPong: false,
    });
    const closed = new Promise<number>((resolve) => silent.on('close', (code) => resolve(code)));
    await graceRoom.next('in_chat_count', (f) => f.count === 2);

    const sweep = sweepOf(app());
    const graceSide = [...app().ctx.hub.watched()].filter((c) => c.userId === grace.user.id);
    const graceAnswered = Promise.all(graceSide.map((c) => once(c.ws, 'pong')));
    await sweep.sweep();
    await graceAnswered;
    expect(silent.readyState).toBe(WebSocket.OPEN);
    await sweep.sweep();
    expect(await closed).toBe(1006);
    // Its departure is announced like any other.
    await graceRoom.next('in_chat_count', (f) => f.count === 1);
    expect(graceRoom.isOpen).toBe(true);
    await graceRoom.close();
  });
});
