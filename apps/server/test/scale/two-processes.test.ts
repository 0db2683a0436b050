import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisPresenceStore, RedisRoomPresence } from '../../src/platform/redis/redis-presence';
import { historyAfter } from '../helpers/chat-data';
import { isPostgresUrl } from '../helpers/pg-schema';
import { killAll, randomIp, type ServerProcess, spawnServer } from '../helpers/server-process';
import { createStore, type ServerStore } from '../helpers/server-store';
import type { Json, SignedUp } from '../helpers/test-app';
import { until } from '../helpers/waits';
import type { WsClient } from '../helpers/ws-client';

// Scale-out: two real Parley processes (A and B) on one PostgreSQL schema and one Redis. People
// connected to different processes chat, see typing, in-room presence, read ticks, notifications and each
// other online; rate limits hold across processes; A is killed with SIGKILL and its people reconnect to B and
// catch up with nothing lost or doubled, and A's people stop counting as online once A's heartbeat is gone.

const pgUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const enabled = isPostgresUrl(pgUrl) && !!redisUrl;

const fullName = (p: SignedUp) => `${p.payload.first_name} ${p.payload.last_name}`;

describe.skipIf(!enabled)('two processes on PostgreSQL and Redis', () => {
  let store: ServerStore;
  let a: ServerProcess;
  let b: ServerProcess;
  let redis: Redis;
  let ada: SignedUp;
  let grace: SignedUp;
  let alan: SignedUp;
  /** Ada and Grace's private chat. */
  let chatAG: string;
  /** Alan and Ada's private chat. */
  let chatAA: string;
  /** Ada in chatAG on A; Grace in chatAG on B; Ada's notifications on A. */
  let adaRoom: WsClient;
  let graceRoom: WsClient;
  let adaNotes: WsClient;
  let lastAdaSaw = 0;

  /** Sends a chat_message and waits for its echo; the stored message. */
  async function say(client: WsClient, body: string, clientId: string): Promise<Json> {
    client.send({ type: 'chat_message', body, client_id: clientId });
    return (await client.next('chat_message', (f) => f.client_id === clientId, 10_000)).message;
  }

  beforeAll(async () => {
    store = await createStore({ postgresUrl: pgUrl });
    redis = new Redis(redisUrl as string, { maxRetriesPerRequest: 3 });
    // One after the other: both migrate-check the schema at start.
    a = await spawnServer({ store, redisUrl, label: 'A', dataDir: path.join(store.dataDir, 'a') });
    b = await spawnServer({ store, redisUrl, label: 'B', dataDir: path.join(store.dataDir, 'b') });

    // Real sign-ups: Ada and Grace on A, Alan on B (each process's own dev outbox).
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await a.signUp({ first_name: 'Grace', last_name: 'Tester' });
    alan = await b.signUp({ first_name: 'Alan', last_name: 'Tester' });
    const started = await a.get(`/api/chats/start/${grace.user.username}/`, ada.token);
    expect(started.status, started.text).toBe(200);
    chatAG = started.body.chat_id;
    // Started on the other process: both see one chat.
    const again = await b.get(`/api/chats/start/${ada.user.username}/`, grace.token);
    expect(again.body.chat_id).toBe(chatAG);
    const other = await b.get(`/api/chats/start/${ada.user.username}/`, alan.token);
    expect(other.status, other.text).toBe(200);
    chatAA = other.body.chat_id;
  }, 120_000);

  afterAll(async () => {
    await killAll();
    redis?.disconnect();
    await store?.close();
  });

  it('serves one conversation across processes: messages, typing, room presence, ticks, notifications, online', async () => {
    adaNotes = (await a.openNotifications(ada.token)).client;
    const alanNotes = await b.openNotifications(alan.token);
    expect(alanNotes.count).toBe(0);

    const adaJoin = await a.joinRoom(ada.token, chatAG, 'ada room');
    adaRoom = adaJoin.client;
    expect(adaJoin.userIds).toEqual([ada.user.id]);
    const graceJoin = await b.joinRoom(grace.token, chatAG, 'grace room');
    graceRoom = graceJoin.client;
    // In-room presence is shared: B already counts Ada (joined on A), and A hears that Grace came in on B.
    expect(graceJoin.userIds.sort()).toEqual([ada.user.id, grace.user.id].sort());
    expect(graceJoin.count).toBe(2);
    const update = await adaRoom.next('in_chat_users_update', (f) => f.user_ids.length === 2, 10_000);
    expect(update.user_ids.sort()).toEqual([ada.user.id, grace.user.id].sort());
    expect((await adaRoom.next('in_chat_count', (f) => f.count === 2, 10_000)).count).toBe(2);

    // Messages both ways: stored once, broadcast to both processes' sockets.
    const m1 = await say(adaRoom, 'Hello from A', 'ada-1');
    const atGrace = await graceRoom.next('chat_message', (f) => f.message.id === m1.id, 10_000);
    expect(atGrace.client_id).toBe('ada-1');
    expect(atGrace.message).toMatchObject({ body: 'Hello from A', sender: ada.user.id, chatroom: chatAG });
    const m2 = await say(graceRoom, 'Hello from B', 'grace-1');
    const atAda = await adaRoom.next('chat_message', (f) => f.message.id === m2.id, 10_000);
    expect(atAda.message).toMatchObject({
      body: 'Hello from B',
      sender: grace.user.id,
      sender_name: 'Grace Tester',
    });
    expect(m2.id).toBeGreaterThan(m1.id);
    lastAdaSaw = m2.id;

    // Typing, both ways, never echoed to the typist.
    adaRoom.send({ type: 'typing', is_typing: true });
    expect(await graceRoom.next('typing', () => true, 10_000)).toEqual({
      type: 'typing',
      user_id: ada.user.id,
      username: ada.user.username,
      is_typing: true,
    });
    graceRoom.send({ type: 'typing', is_typing: false });
    expect(await adaRoom.next('typing', () => true, 10_000)).toMatchObject({
      user_id: grace.user.id,
      is_typing: false,
    });

    // Delivery and read ticks for Ada's message, reported on B, seen on A.
    graceRoom.send({ type: 'messages_delivered', message_ids: [m1.id] });
    expect(
      (await adaRoom.next('messages_delivered', (f) => f.message_ids.includes(m1.id), 10_000)).message_ids,
    ).toEqual([m1.id]);
    graceRoom.send({ type: 'read_messages', message_ids: [m1.id] });
    expect(await adaRoom.next('messages_read', (f) => f.message_ids.includes(m1.id), 10_000)).toEqual({
      type: 'messages_read',
      message_ids: [m1.id],
      user_id: grace.user.id,
    });
    // Ada read Grace's message on A: Grace's tick turns on B.
    adaRoom.send({ type: 'read_messages', message_ids: [m2.id] });
    expect(
      (await graceRoom.next('messages_read', (f) => f.message_ids.includes(m2.id), 10_000)).user_id,
    ).toBe(ada.user.id);

    // A notification crosses processes: Ada writes to Alan on A; Alan, connected to B and not in the room, is told.
    const adaToAlan = (await a.joinRoom(ada.token, chatAA, 'ada→alan room')).client;
    await say(adaToAlan, 'Ping, Alan', 'ada-alan-1');
    const note = await alanNotes.client.next('new_message', () => true, 10_000);
    expect(note.message).toMatchObject({ sender: fullName(ada), message: 'Ping, Alan', chatroom_id: chatAA });
    expect(await alanNotes.client.next('notification_count', () => true, 10_000)).toEqual({
      type: 'notification_count',
      count: 1,
    });
    await adaToAlan.close();

    // Online presence is shared: A sees Grace and Alan (sockets on B) online, B sees Ada (sockets on A) online.
    const profilesOnA = (await a.get('/api/profiles')).body as Json[];
    const onlineOnA = (id: number) => profilesOnA.find((p) => p.id === id)?.is_online;
    expect([onlineOnA(grace.user.id), onlineOnA(alan.user.id)]).toEqual([true, true]);
    const detailOnA = (await a.get(`/api/chats/${chatAG}/`, ada.token)).body;
    expect(detailOnA.members.find((m: Json) => m.id === grace.user.id).is_online).toBe(true);
    const detailOnB = (await b.get(`/api/chats/${chatAG}/`, grace.token)).body;
    expect(detailOnB.members.find((m: Json) => m.id === ada.user.id).is_online).toBe(true);
    const listOnB = (await b.get('/api/chats/my/', grace.token)).body.chats as Json[];
    expect(listOnB.find((c) => c.chat_id === chatAG)?.is_online).toBe(true);

    await alanNotes.client.close();
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it('holds rate limits across processes (login failures, socket messages)', async () => {
    // Five failed logins for one account, three on A and two on B: the sixth is refused on either.
    const ip = randomIp();
    const wrong = { email: alan.payload.email, password: 'not-the-password-1' };
    const login = (p: ServerProcess) =>
      p.post('/api/users/login/', wrong, undefined, { 'x-forwarded-for': ip });
    for (const p of [a, b, a, b, a]) expect((await login(p)).status).toBe(400);
    const refusedOnB = await login(b);
    expect(refusedOnB.status).toBe(429);
    expect(Number(refusedOnB.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login(a)).status).toBe(429);
    // The right password is refused as well while the account is locked, on both processes.
    const right = { email: alan.payload.email, password: alan.payload.password };
    expect((await a.post('/api/users/login/', right, undefined, { 'x-forwarded-for': ip })).status).toBe(429);

    // Socket messages: 20 per 10 s per person, counted across Alan's sockets on A and on B.
    const onA = (await a.joinRoom(alan.token, chatAA, 'alan room A')).client;
    const onB = (await b.joinRoom(alan.token, chatAA, 'alan room B')).client;
    for (let i = 0; i < 20; i++) await say(i % 2 === 0 ? onA : onB, `burst ${i}`, `alan-burst-${i}`);
    onB.send({ type: 'chat_message', body: 'one too many', client_id: 'alan-burst-20' });
    expect(await onB.next('error', () => true, 10_000)).toMatchObject({
      code: 'rate_limited',
      client_id: 'alan-burst-20',
    });
    onA.send({ type: 'chat_message', body: 'one too many', client_id: 'alan-burst-21' });
    expect(await onA.next('error', () => true, 10_000)).toMatchObject({
      code: 'rate_limited',
      client_id: 'alan-burst-21',
    });
    await Promise.all([onA.close(), onB.close()]);
  });

  it('after A is killed, its people reconnect to B and catch up exactly once; they go offline with A', async () => {
    // Ada sends one more message on A and, without waiting, a last one that may or may not be stored: then -9.
    const lastOnA = await say(adaRoom, 'Last word from A', 'ada-2');
    await graceRoom.next('chat_message', (f) => f.message.id === lastOnA.id, 10_000);
    adaRoom.send({ type: 'chat_message', body: 'Sent as A died', client_id: 'ada-3' });
    const killed = await a.kill('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    expect((await adaRoom.closed(10_000)).code).toBe(1006);
    expect((await adaNotes.closed(10_000)).code).toBe(1006);
    const adaSaw = new Set(adaRoom.received('chat_message').map((f) => f.message.id as number));
    lastAdaSaw = Math.max(lastAdaSaw, ...adaSaw);

    // Grace (on B) keeps writing while Ada is away.
    const whileAway: number[] = [];
    for (let i = 1; i <= 3; i++)
      whileAway.push((await say(graceRoom, `While you were away ${i}`, `grace-away-${i}`)).id);

    // Ada's presence was counted by A. A's heartbeat key expires within 60 s of its last beat; until then B
    // still shows her online. Expiry is fast-forwarded here by deleting the key, exactly what Redis does at 60 s.
    const fields = Object.keys(await redis.hgetall(`parley:online:${ada.user.id}`));
    const instances = [...new Set(fields.map((f) => f.split('|')[0]))];
    expect(instances).toHaveLength(1);
    const heartbeat = `parley:instance:${instances[0]}`;
    const ttl = await redis.ttl(heartbeat);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    const adaOnB = async () =>
      ((await b.get(`/api/chats/${chatAG}/`, grace.token)).body.members as Json[]).find(
        (m) => m.id === ada.user.id,
      ).is_online as boolean;
    expect(await adaOnB()).toBe(true);
    await redis.del(heartbeat);
    expect(await adaOnB()).toBe(false);
    const profiles = (await b.get('/api/profiles')).body as Json[];
    expect(profiles.find((p) => p.id === ada.user.id)?.is_online).toBe(false);
    // Nor is she counted in the room any longer.
    const graceAgain = await b.joinRoom(grace.token, chatAG, 'grace room 2');
    expect(graceAgain.userIds).toEqual([grace.user.id]);
    await graceAgain.client.close();

    // Ada reconnects to B with a ticket from B, catches up with ?after=, and resends her pending message.
    const rejoin = await b.joinRoom(ada.token, chatAG, 'ada room on B');
    const adaOnBRoom = rejoin.client;
    expect(rejoin.userIds.sort()).toEqual([ada.user.id, grace.user.id].sort());
    const missed = await historyAfter(b, ada.token, chatAG, lastAdaSaw);
    const missedIds = missed.map((m) => m.id as number);
    // Grace's three are there, once each, in order; besides them at most "Sent as A died", if A stored it.
    expect(missedIds.filter((id) => whileAway.includes(id))).toEqual(whileAway);
    expect(new Set(missedIds).size).toBe(missedIds.length);
    expect(missed.filter((m) => !whileAway.includes(m.id) && m.client_id !== 'ada-3')).toEqual([]);
    const resent = await say(adaOnBRoom, 'Sent as A died', 'ada-3');
    // The full history has every message once: "Sent as A died" before Grace's three if A stored it, else after.
    const all = await historyAfter(b, grace.token, chatAG, 0);
    const order = all.map((m) => m.client_id);
    const away = ['grace-away-1', 'grace-away-2', 'grace-away-3'];
    const storedByA = order.indexOf('ada-3') < order.indexOf('grace-away-1');
    expect(order).toEqual([
      'ada-1',
      'grace-1',
      'ada-2',
      ...(storedByA ? ['ada-3', ...away] : [...away, 'ada-3']),
    ]);
    expect(all.find((m) => m.client_id === 'ada-3')?.id).toBe(resent.id);

    // And the conversation goes on, both now on B; Grace never got any message twice.
    const hello = await say(graceRoom, 'Welcome back', 'grace-2');
    expect(
      (await adaOnBRoom.next('chat_message', (f) => f.message.id === hello.id, 10_000)).message.body,
    ).toBe('Welcome back');
    await until(adaOnB, 'Ada online again, through B', 10_000);
    const graceIds = graceRoom.received('chat_message').map((f) => f.message.id as number);
    expect(new Set(graceIds).size).toBe(graceIds.length);
    await Promise.all([adaOnBRoom.close(), graceRoom.close()]);
    expect(b.errors).toEqual([]);
  });

  it('stops gracefully on SIGTERM and takes its presence out of Redis', async () => {
    const notes = (await b.openNotifications(grace.token, 'grace notifications')).client;
    // Presence is counted just after the socket opens (not before its first frame): wait for it.
    const countedFields = async () => Object.keys(await redis.hgetall(`parley:online:${grace.user.id}`));
    await until(async () => (await countedFields()).length > 0, "Grace's count in Redis", 10_000);
    const fields = await countedFields();
    expect(fields).toHaveLength(1);
    const exit = await b.stop();
    expect(exit).toEqual({ code: 0, signal: null });
    expect((await notes.closed(10_000)).code).not.toBe(4001);
    // Neither Grace's count nor B's heartbeat outlive B: nothing for others to skip or prune.
    expect(await redis.hexists(`parley:online:${grace.user.id}`, fields[0] as string)).toBe(0);
    expect(await redis.exists(`parley:instance:${(fields[0] as string).split('|')[0]}`)).toBe(0);
    expect(b.errors).toEqual([]);
  });

  it('ignores, then prunes, the counts of a process whose heartbeat key is gone (RedisPresenceStore)', async () => {
    const store1 = new RedisPresenceStore(redisUrl as string);
    const key = `parley:test:presence:${store1.instanceId}`;
    try {
      // A live process's count counts; a dead one's (no heartbeat key) does not, and is removed when read.
      expect(await store1.change(key, 'u1', 1)).toEqual(['u1']);
      await redis.hset(key, 'deadbeef0000|u2', '3');
      expect(await store1.liveFields(key)).toEqual(['u1']);
      expect(await redis.hexists(key, 'deadbeef0000|u2')).toBe(0);
      // A process that beats is counted until its key expires.
      await redis.set('parley:instance:feedface0000', '1', 'PX', 300);
      await redis.hset(key, 'feedface0000|u3', '1');
      expect((await store1.liveFields(key)).sort()).toEqual(['u1', 'u3']);
      await until(
        async () => (await redis.exists('parley:instance:feedface0000')) === 0,
        'heartbeat expiry',
        3000,
      );
      expect(await store1.liveFields(key)).toEqual(['u1']);
      expect(await redis.hexists(key, 'feedface0000|u3')).toBe(0);
    } finally {
      await store1.close();
    }
    // A process that shuts down takes its counts and its heartbeat with it.
    expect(await redis.exists(key, `parley:instance:${store1.instanceId}`)).toBe(0);
  });

  it('tells who of a chat is not in its room from the mirror, as the send path asks (RedisRoomPresence)', async () => {
    const store1 = new RedisPresenceStore(redisUrl as string);
    const store2 = new RedisPresenceStore(redisUrl as string);
    const chatId = `test-absent-${store1.instanceId}`;
    const rooms1 = new RedisRoomPresence(store1);
    const rooms2 = new RedisRoomPresence(store2);
    try {
      expect(await rooms1.absentAmong(chatId, [1, 2, 3])).toEqual([1, 2, 3]);
      // Joined on the other process: this one's mirror hears of it.
      await rooms2.join(chatId, 2);
      await until(async () => (await rooms1.absentAmong(chatId, [1, 2, 3])).length === 2, 'mirror', 3000);
      expect(await rooms1.absentAmong(chatId, [3, 2, 1])).toEqual([3, 1]);
      await rooms2.leave(chatId, 2);
      await until(async () => (await rooms1.absentAmong(chatId, [1, 2])).length === 2, 'mirror', 3000);
    } finally {
      await store1.close();
      await store2.close();
    }
  });

  it('never loses a count when a connection closes and another opens at once (RedisPresenceStore)', async () => {
    const store1 = new RedisPresenceStore(redisUrl as string);
    const key = `parley:test:presence:${store1.instanceId}`;
    try {
      // A page reload: the old socket's -1 and the new one's +1 reach Redis back to back. Removing the field
      // at zero must not remove the +1 that came right after.
      expect(await store1.change(key, 'u1', 1)).toEqual(['u1']);
      for (let i = 0; i < 5; i++) {
        await Promise.all([store1.change(key, 'u1', -1), store1.change(key, 'u1', 1)]);
        expect(await store1.liveFields(key)).toEqual(['u1']);
        expect(await redis.hget(key, `${store1.instanceId}|u1`)).toBe('1');
      }
      expect(await store1.change(key, 'u1', -1)).toEqual([]);
    } finally {
      await redis.del(key);
      await store1.close();
    }
  });
});
