import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadVapidKeys } from '../../src/modules/notifications/vapid';
import { addMember, createGroup, fullName, people, startChat } from '../chats/chat-helpers';
import {
  FakeBrowser,
  pathOf,
  startPushEndpoint,
  usePushService,
  verifyVapid,
} from '../helpers/push-endpoint';
import type { SignedUp, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { eventually, joinRoom } from '../helpers/ws-client';

// Web Push end to end: a browser's subscription is stored, a message to someone away from the room is
// encrypted for their browser and POSTed to their push service (a local one here, which only
// PUSH_ALLOW_PRIVATE_ENDPOINTS lets the server reach), and the test decrypts it.

const app = useTestApp({ env: { PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' } });
const push = usePushService();

const subscriptionRows = (t: TestApp) =>
  t.ctx.db.selectFrom('push_subscriptions').select(['user_id', 'endpoint', 'session_id']).execute();

const setPush = async (t: TestApp, person: SignedUp, on: boolean) =>
  expect((await t.put('/api/users/profile/settings/', { push_notification: on }, person.token)).status).toBe(
    200,
  );

describe('VAPID keys', () => {
  it('are made once into DATA_DIR/vapid.json and served as the public key', async () => {
    const t = app();
    const res = await t.get('/api/push/vapid-public-key/');
    expect(res.status).toBe(200);
    expect(Buffer.from(res.body.public_key, 'base64url')).toHaveLength(65);
    const stored = JSON.parse(await fs.readFile(path.join(t.dataDir, 'vapid.json'), 'utf8'));
    expect(stored.publicKey).toBe(res.body.public_key);
    // The next start (or a second process) reads the same pair back.
    expect((await loadVapidKeys(t.dataDir)).publicKey).toBe(res.body.public_key);
  });

  it('come out the same for processes starting at once', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-vapid-'));
    try {
      const all = await Promise.all(Array.from({ length: 6 }, () => loadVapidKeys(dir)));
      expect(new Set(all.map((k) => k.publicKey)).size).toBe(1);
      expect((await fs.stat(path.join(dir, 'vapid.json'))).mode & 0o077).toBe(0);
      expect((await fs.readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('subscriptions', () => {
  it('need a session and a well-formed subscription', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const browser = new FakeBrowser(push.url('/push/x'));
    expect((await t.post('/api/push/subscriptions/', browser.subscription)).status).toBe(401);

    const badKeys = {
      ...browser.subscription,
      keys: { p256dh: 'abc', auth: browser.subscription.keys.auth },
    };
    const res = await t.post('/api/push/subscriptions/', badKeys, ada.token);
    expect(res.status).toBe(400);
    expect(res.body.keys).toBeDefined();

    const notUrl = await t.post(
      '/api/push/subscriptions/',
      { ...browser.subscription, endpoint: 'nope' },
      ada.token,
    );
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.endpoint).toBeDefined();

    const ftp = { ...browser.subscription, endpoint: 'ftp://push.example/x' };
    expect((await t.post('/api/push/subscriptions/', ftp, ada.token)).status).toBe(400);
    expect(await subscriptionRows(t)).toEqual([]);
  });

  it('are stored once per endpoint; the same endpoint under another person moves to them', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const browser = await push.subscribe(t, ada);
    await t.post('/api/push/subscriptions/', browser.subscription, ada.token);
    expect(await subscriptionRows(t)).toEqual([expect.objectContaining({ user_id: ada.user.id })]);

    const res = await t.post('/api/push/subscriptions/', browser.subscription, grace.token);
    expect(res.status).toBe(201);
    expect(await subscriptionRows(t)).toEqual([
      expect.objectContaining({ user_id: grace.user.id, endpoint: browser.endpoint }),
    ]);
  });

  it('are removed by DELETE, only by their owner', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const browser = await push.subscribe(t, ada);
    const body = { endpoint: browser.endpoint };

    const stranger = await t.request('DELETE', '/api/push/subscriptions/', {
      json: body,
      token: grace.token,
    });
    expect(stranger.status).toBe(204);
    expect(await subscriptionRows(t)).toHaveLength(1);

    const own = await t.request('DELETE', '/api/push/subscriptions/', { json: body, token: ada.token });
    expect(own.status).toBe(204);
    expect(await subscriptionRows(t)).toEqual([]);
    expect((await t.request('DELETE', '/api/push/subscriptions/', { json: body })).status).toBe(401);
  });

  it('end with the session that made them (signing out stops pushes to that browser)', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    await push.subscribe(t, ada);
    expect(await subscriptionRows(t)).toHaveLength(1);
    expect((await t.post('/api/users/logout/', {}, ada.token)).status).toBe(200);
    expect(await subscriptionRows(t)).toEqual([]);
  });
});

describe('delivery', () => {
  it('encrypts the message for the away recipient’s browser and signs it with VAPID', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    const browser = await push.subscribe(t, grace);

    const body = 'The Analytical Engine weaves algebraic patterns just as the Jacquard loom weaves flowers.';
    await t.ctx.messages.send(ada.user.id, chatId, { body });

    const request = await push.waitFor(pathOf(browser));
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request.headers.ttl)).toBeGreaterThan(0);
    expect(request.headers.topic).toBe(chatId);
    const publicKey = (await t.get('/api/push/vapid-public-key/')).body.public_key;
    const claims = verifyVapid(request.headers.authorization, publicKey, new URL(browser.endpoint).origin);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(claims.sub).toMatch(/^(mailto:|https:)/);

    const payload = JSON.parse(browser.decrypt(request.body));
    expect(payload).toEqual({
      title: fullName(ada),
      body: `${body.slice(0, 40)}...`,
      chatroom_id: chatId,
      url: `/chats/${chatId}`,
      tag: chatId,
      icon: null,
    });
    // Ada wrote it; her own browser (if any) is not notified.
    expect(push.requests).toHaveLength(1);
  });

  it('goes to every browser of group members who are away and have the switch on, and to nobody else', async () => {
    const t = app();
    const [ada, grace, linus, alan] = await people(t, 'Ada', 'Grace', 'Linus', 'Alan');
    const chatId = await createGroup(t, ada.token, 'Engines');
    for (const p of [grace, linus, alan]) await addMember(t, chatId, p.user.id);
    const adaBrowser = await push.subscribe(t, ada);
    const linusPhone = await push.subscribe(t, linus);
    const linusLaptop = await push.subscribe(t, linus);
    const graceBrowser = await push.subscribe(t, grace);
    const alanBrowser = await push.subscribe(t, alan);
    await setPush(t, grace, false);
    // Alan has the room open: he sees the message there.
    const alanRoom = await joinRoom(t, alan.token, chatId);

    await t.ctx.messages.send(ada.user.id, chatId, { body: 'Short note' });
    const [phone, laptop] = await Promise.all([
      push.waitFor(pathOf(linusPhone)),
      push.waitFor(pathOf(linusLaptop)),
    ]);
    for (const [req, browser] of [
      [phone, linusPhone],
      [laptop, linusLaptop],
    ] as const) {
      expect(JSON.parse(browser.decrypt(req.body))).toMatchObject({
        title: fullName(ada),
        body: 'Short note',
        chatroom_id: chatId,
        url: `/groups/${chatId}`,
      });
    }
    // One fan-out sends to all targets together, so the others' absence is settled once Linus's arrived.
    expect(push.to(pathOf(graceBrowser))).toEqual([]);
    expect(push.to(pathOf(alanBrowser))).toEqual([]);
    expect(push.to(pathOf(adaBrowser))).toEqual([]);
    expect(push.requests).toHaveLength(2);
    await alanRoom.close();

    // Switched back on, Grace's browser is notified again.
    await setPush(t, grace, true);
    await t.ctx.messages.send(ada.user.id, chatId, { body: 'Second note' });
    const again = await push.waitFor(pathOf(graceBrowser));
    expect(JSON.parse(graceBrowser.decrypt(again.body)).body).toBe('Second note');
  });

  it('writes each push in its reader’s language: the one chosen, else the sign-up browser’s', async () => {
    const t = app();
    const [ada, grace, alan, linus] = await people(t, 'Ada', 'Grace', 'Alan', 'Linus');
    const chatId = await createGroup(t, ada.token, 'Engines');
    for (const p of [grace, alan, linus]) await addMember(t, chatId, p.user.id);
    // Grace chose German in Settings; Alan chose nothing and signed up in a French browser.
    for (const p of [grace, linus])
      expect((await t.put('/api/users/profile/settings/', { language: 'de' }, p.token)).status).toBe(200);
    await t.ctx.db
      .updateTable('users')
      .set({ signup_language: 'fr' })
      .where('id', '=', alan.user.id)
      .execute();
    const [graceBrowser, alanBrowser, linusBrowser] = [
      await push.subscribe(t, grace),
      await push.subscribe(t, alan),
      await push.subscribe(t, linus),
    ];

    const body = `@${grace.user.username} @${alan.user.username} the gears, please`;
    await t.ctx.messages.send(ada.user.id, chatId, { body });
    const [toGrace, toAlan, toLinus] = await Promise.all(
      [graceBrowser, alanBrowser, linusBrowser].map(async (b) =>
        JSON.parse(b.decrypt((await push.waitFor(pathOf(b))).body)),
      ),
    );
    expect(toGrace).toMatchObject({ title: `${fullName(ada)} hat dich erwähnt`, chatroom_id: chatId });
    expect(toAlan).toMatchObject({ title: `${fullName(ada)} vous a mentionné`, chatroom_id: chatId });
    // Not mentioned: the title is the sender's name, in every language.
    expect(toLinus).toMatchObject({ title: fullName(ada), body: toGrace.body });
  });

  it('does not push system lines', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await createGroup(t, ada.token, 'Looms');
    await addMember(t, chatId, grace.user.id);
    const browser = await push.subscribe(t, grace);
    const chat = await t.ctx.db
      .selectFrom('chats')
      .selectAll()
      .where('chat_id', '=', chatId)
      .executeTakeFirstOrThrow();
    await t.ctx.messages.announce(chat, 'Ada renamed the group');
    await t.ctx.messages.send(ada.user.id, chatId, { body: 'real one' });
    const first = await push.waitFor(pathOf(browser));
    expect(JSON.parse(browser.decrypt(first.body)).body).toBe('real one');
    expect(push.requests).toHaveLength(1);
  });

  it('does not push a resend again', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    const browser = await push.subscribe(t, grace);
    await t.ctx.messages.send(ada.user.id, chatId, { body: 'once', client_id: 'r-1' });
    await push.waitFor(pathOf(browser));
    // The sender missed the echo and sends it again: the room hears it again, her browser does not.
    expect((await t.ctx.messages.send(ada.user.id, chatId, { body: 'once', client_id: 'r-1' })).created).toBe(
      false,
    );
    await t.ctx.messages.send(ada.user.id, chatId, { body: 'next' });
    const second = await push.waitFor(pathOf(browser), 2);
    expect(JSON.parse(browser.decrypt(second.body)).body).toBe('next');
    expect(push.requests).toHaveLength(2);
  });

  it('drops a subscription its push service says is gone (410, 404) and keeps one that failed otherwise', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    const gone = await push.subscribe(t, grace);
    const missing = await push.subscribe(t, grace);
    const busy = await push.subscribe(t, grace);
    push.answer(pathOf(gone), 410);
    push.answer(pathOf(missing), 404);
    push.answer(pathOf(busy), 503);

    await t.ctx.messages.send(ada.user.id, chatId, { body: 'Anyone there?' });
    await Promise.all([gone, missing, busy].map((b) => push.waitFor(pathOf(b))));
    const left = await eventually(async () => {
      const rows = await subscriptionRows(t);
      return rows.length === 1 ? rows : undefined;
    }, 'the gone subscriptions to be removed');
    expect(left[0]?.endpoint).toBe(busy.endpoint);

    await t.ctx.messages.send(ada.user.id, chatId, { body: 'Still there?' });
    await push.waitFor(pathOf(busy), 2);
    expect(push.to(pathOf(gone))).toHaveLength(1);
    expect(push.to(pathOf(missing))).toHaveLength(1);
  });

  it('never holds up sending when the push service is down', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    // Nothing listens on this port any more.
    const dead = await startPushEndpoint();
    const endpoint = dead.url('/push/dead');
    await dead.close();
    const browser = new FakeBrowser(endpoint);
    expect((await t.post('/api/push/subscriptions/', browser.subscription, grace.token)).status).toBe(201);

    const started = Date.now();
    const { created } = await t.ctx.messages.send(ada.user.id, chatId, { body: 'hello' });
    expect(created).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    // A failure that is not "gone" keeps the subscription.
    expect(await subscriptionRows(t)).toHaveLength(1);
  });
});
