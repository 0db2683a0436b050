import { CLOSE_TOO_MANY } from '@parley/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { RedisPresenceStore } from '../../src/platform/redis/redis-presence';
import { people, startChat } from '../chats/chat-helpers';
import { useTestApp } from '../helpers/test-app';
import {
  connectWs,
  joinRoom,
  NOTIFICATIONS_PATH,
  openNotifications,
  type WsClient,
} from '../helpers/ws-client';

// DESIGN §7's per-user limit on socket connections (one person opened 150 notification sockets in
// 1.5 s): tickets per minute answer 429, and a socket past the person's limit, counted over every process
// (presence), is closed with 4029. Small limits here; the defaults are checked on the config.
const app = useTestApp({ config: { socketsPerUser: 3, socketTicketsPerMinute: 6 } });
const open: WsClient[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) c.close();
});

describe('socket limits per person', () => {
  it('default to 30 sockets and 60 tickets a minute', () => {
    const config = loadConfig({});
    expect([config.socketsPerUser, config.socketTicketsPerMinute]).toEqual([30, 60]);
  });

  it('close the socket past the limit with 4029, and let a new one in once one closed', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    open.push((await openNotifications(t, ada.token)).client, (await openNotifications(t, ada.token)).client);
    open.push(await joinRoom(t, ada.token, chatId));
    const fourth = await connectWs(t, NOTIFICATIONS_PATH, ada.token);
    expect((await fourth.closed()).code).toBe(CLOSE_TOO_MANY);
    // Someone else is not held back by Ada's sockets.
    open.push((await openNotifications(t, grace.token)).client);

    const first = open.shift() as WsClient;
    first.close();
    await first.closed();
    // Her count is down again (the close handling runs a moment after the close).
    let again: WsClient | null = null;
    for (let tries = 0; tries < 20 && !again; tries++) {
      const next = await connectWs(t, NOTIFICATIONS_PATH, ada.token);
      const frame = await Promise.race([
        next.next('notification_count').then(() => 'open'),
        next.closed().then(() => 'closed'),
      ]);
      if (frame === 'open') again = next;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(again).not.toBeNull();
    open.push(again as WsClient);
  });

  it('answer 429 with Retry-After past the tickets one person may take in a minute', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    for (let i = 0; i < 6; i++) expect((await t.post('/api/ws/ticket/', {}, ada.token)).status).toBe(200);
    const refused = await t.post('/api/ws/ticket/', {}, ada.token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toEqual({ detail: 'Too many connections. Please try again later.' });
    expect((await t.post('/api/ws/ticket/', {}, grace.token)).status).toBe(200);
  });
});

// The count behind the limit, with REDIS_URL: every process's connections of the person, added up.
describe.skipIf(!process.env.REDIS_URL)('connections counted over processes (Redis)', () => {
  const stores: RedisPresenceStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });

  it('adds up what live processes count, and forgets a closed one', async () => {
    const [a, b] = [
      new RedisPresenceStore(process.env.REDIS_URL as string),
      new RedisPresenceStore(process.env.REDIS_URL as string),
    ];
    stores.push(a, b);
    const key = `parley:test:${Math.random().toString(36).slice(2)}`;
    await a.change(key, 'c', 1);
    await a.change(key, 'c', 1);
    await b.change(key, 'c', 1);
    expect(await a.liveTotal(key)).toBe(3);
    expect(await b.liveTotal(key)).toBe(3);
    await (stores.pop() as RedisPresenceStore).close();
    expect(await a.liveTotal(key)).toBe(2);
  });
});
