import { BOT_TEXT, MSG } from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { history, newClientId, people } from '../chats/chat-helpers';
import { addMembers, groupOf } from '../groups/group-helpers';
import { type BotReceiver, startBotReceiver } from '../helpers/bot-receiver';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { joinRoom } from '../helpers/ws-client';

// Bots: users with is_bot that a person owns (POST/GET/PATCH/DELETE /api/bots/, POST …/tokens/ to rotate), their
// messages marked sender_is_bot, and their events POSTed signed to a local receiver, retried, and logged.
const app = useTestApp({
  env: { EVENTS_ALLOW_PRIVATE_HOSTS: 'true' },
  config: { botEvents: { retryDelaysMs: [100, 200, 300], timeoutMs: 2_000 } },
});

let receiver: BotReceiver;
beforeEach(async () => {
  receiver = await startBotReceiver();
});
afterEach(async () => {
  await receiver.close();
});

interface Credentials {
  bot: { id: number; username: string; events_url: string | null };
  token: string;
  signing_secret: string;
}

async function makeBot(t: TestApp, owner: string, extra: Record<string, unknown> = {}): Promise<Credentials> {
  const res = await t.post(
    '/api/bots/',
    { username: `deploy-${newClientId('b')}`.slice(0, 30), display_name: 'Deploy bot', ...extra },
    owner,
  );
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('bots', () => {
  it('is made with a token and a signing secret shown once, stored only hashed or sealed, and cannot sign in', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const made = await makeBot(t, ada.token, { description: 'Ships things' });
    expect(made.token).toMatch(/^prl_/);
    expect(made.signing_secret).toMatch(/^whsec_/);
    const listed = await t.get('/api/bots/', ada.token);
    expect(listed.body.results).toEqual([
      expect.objectContaining({ id: made.bot.id, description: 'Ships things' }),
    ]);
    expect(listed.text).not.toContain(made.token);
    expect(listed.text).not.toContain(made.signing_secret);
    const dump = JSON.stringify([
      await t.ctx.db.selectFrom('bots').selectAll().execute(),
      await t.ctx.db.selectFrom('api_tokens').selectAll().execute(),
    ]);
    expect(dump).not.toContain(made.token.slice(4));
    expect(dump).not.toContain(made.signing_secret.slice(6));
    const row = await t.ctx.db
      .selectFrom('users')
      .select(['email', 'is_bot'])
      .where('id', '=', made.bot.id)
      .executeTakeFirstOrThrow();
    expect(row.is_bot).toBe(1);
    const login = await t.post('/api/users/login/', { email: row.email, password: '!' });
    expect(login.status).toBe(400);
    expect(login.body.detail).toBe(MSG.invalidCredentials);

    // Wherever people are shown it is marked a bot; the count of people leaves it out.
    const profile = await t.get(`/api/users/@${made.bot.username}/`, ada.token);
    expect(profile.body.is_bot).toBe(true);
    const cards = (await t.get('/api/profiles')).body as { username: string; is_bot?: boolean }[];
    expect(cards.find((c) => c.username === made.bot.username)?.is_bot).toBe(true);
    expect(cards.find((c) => c.username === ada.user.username)).not.toHaveProperty('is_bot');
    expect((await t.get('/api/stats')).body.total_users).toBe(1);

    // Its token acts as the bot.
    const me = await t.get('/api/users/profile/', made.token);
    expect(me.body.username).toBe(made.bot.username);
    // It may not manage bots (a token never mints one).
    expect((await t.post('/api/bots/', { username: 'x-bot', display_name: 'x' }, made.token)).status).toBe(
      403,
    );
  });

  it('refuses a taken username and an events address that is not https, and hides other people’s bots', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const taken = await t.post('/api/bots/', { username: grace.user.username, display_name: 'x' }, ada.token);
    expect(taken.status).toBe(400);
    expect(taken.body.username).toEqual([MSG.usernameTaken]);
    const bad = await t.post(
      '/api/bots/',
      { username: 'ftp-bot', display_name: 'x', events_url: 'ftp://example.com/' },
      ada.token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.events_url).toEqual([BOT_TEXT.badEventsUrl]);
    const made = await makeBot(t, ada.token);
    expect(
      (await t.request('PATCH', `/api/bots/${made.bot.id}/`, { token: grace.token, json: {} })).status,
    ).toBe(404);
    expect((await t.del(`/api/bots/${made.bot.id}/`, grace.token)).status).toBe(404);
    expect((await t.get(`/api/bots/${made.bot.id}/deliveries/`, grace.token)).status).toBe(404);
    const renamed = await t.request('PATCH', `/api/bots/${made.bot.id}/`, {
      token: ada.token,
      json: { display_name: 'Release bot' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.display_name).toBe('Release bot');
  });

  it('posts into a group it was added to, marked as a bot, and talks privately only to whom its owner allows', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Ops', 'Ada', 'Grace');
    const made = await makeBot(t, ada.token);
    expect((await addMembers(t, ada.token, chatId, { members: [made.bot.username] })).status).toBe(200);
    const room = await joinRoom(t, grace.token, chatId);
    const sent = await t.post(
      `/api/chats/${chatId}/messages/`,
      { body: 'Build 42 is green', client_id: 'b-1' },
      made.token,
    );
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.sender_is_bot).toBe(true);
    const live = await room.next('chat_message', (f) => f.message.body === 'Build 42 is green');
    expect(live.message).toMatchObject({
      sender: made.bot.id,
      sender_is_bot: true,
      sender_name: 'Deploy bot',
    });
    expect((await history(t, grace.token, chatId)).find((m) => m.id === sent.body.id)?.sender_is_bot).toBe(
      true,
    );

    // Grace never chatted with it: refused. Its owner may; the bot may write to Grace first.
    const refused = await t.get(`/api/chats/start/${made.bot.username}/`, grace.token);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(BOT_TEXT.closed);
    expect((await t.get(`/api/chats/start/${made.bot.username}/`, ada.token)).status).toBe(200);
    const first = await t.get(`/api/chats/start/${grace.user.username}/`, made.token);
    expect(first.status).toBe(200);
    expect((await t.get(`/api/chats/start/${made.bot.username}/`, grace.token)).body.chat_id).toBe(
      first.body.chat_id,
    );
  });

  it('sends signed events for messages in its chats, retries a failure, and logs every attempt', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Ops', 'Ada', 'Grace');
    const made = await makeBot(t, ada.token, { events_url: receiver.url('/events') });
    receiver.secret = made.signing_secret;
    await addMembers(t, ada.token, chatId, { members: [made.bot.username] });
    receiver.answer('/events', { status: 500 }, { status: 503 }, { status: 200 });
    const room = await joinRoom(t, grace.token, chatId);
    room.send({ type: 'chat_message', body: '@deploy ship it', client_id: 'g-1' });
    await room.next('chat_message', (f) => f.message.body === '@deploy ship it');

    const delivered = await receiver.waitFor('/events', 3);
    expect(delivered.signed).toBe(true);
    expect(delivered.json).toMatchObject({
      type: 'message',
      chat_id: chatId,
      message: { body: '@deploy ship it' },
    });
    expect(delivered.headers['x-parley-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(receiver.to('/events').every((r) => r.raw === delivered.raw)).toBe(true);
    // A forged body does not hold the signature.
    expect(receiver.to('/events')[0]?.signed).toBe(true);

    const log = await expect
      .poll(async () => (await t.get(`/api/bots/${made.bot.id}/deliveries/`, ada.token)).body.results, {
        timeout: 10_000,
      })
      .toHaveLength(3);
    void log;
    const entries = (await t.get(`/api/bots/${made.bot.id}/deliveries/`, ada.token)).body.results;
    expect(
      entries.map((d: { attempt: number; status: string; http_status: number }) => [
        d.attempt,
        d.status,
        d.http_status,
      ]),
    ).toEqual([
      [3, 'delivered', 200],
      [2, 'failed', 503],
      [1, 'failed', 500],
    ]);
    // Its own messages are not sent back to it.
    await t.post(`/api/chats/${chatId}/messages/`, { body: 'Shipped', client_id: 'b-2' }, made.token);
    await t.ctx.lifecycle.settled();
    expect(receiver.to('/events')).toHaveLength(3);
  });

  it('gives up after four attempts', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Ops', 'Ada');
    const made = await makeBot(t, ada.token, { events_url: receiver.url('/down') });
    await addMembers(t, ada.token, chatId, { members: [made.bot.username] });
    receiver.answer('/down', { status: 500 });
    await t.post(`/api/chats/${chatId}/messages/`, { body: 'anyone?', client_id: 'a-1' }, ada.token);
    await receiver.waitFor('/down', 4);
    await expect
      .poll(
        async () => (await t.get(`/api/bots/${made.bot.id}/deliveries/`, ada.token)).body.results.length,
        {
          timeout: 10_000,
        },
      )
      .toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.to('/down')).toHaveLength(4);
  });

  it('rotates: the old token and secret stop working, the new ones work; deleting the bot ends its token', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const made = await makeBot(t, ada.token);
    const rotated = await t.post(`/api/bots/${made.bot.id}/tokens/`, {}, ada.token);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.token).not.toBe(made.token);
    expect(rotated.body.signing_secret).not.toBe(made.signing_secret);
    expect((await t.get('/api/users/profile/', made.token)).status).toBe(401);
    expect((await t.get('/api/users/profile/', rotated.body.token)).status).toBe(200);
    expect((await t.del(`/api/bots/${made.bot.id}/`, ada.token)).status).toBe(204);
    expect((await t.get('/api/users/profile/', rotated.body.token)).status).toBe(401);
    expect((await t.get('/api/bots/', ada.token)).body.results).toEqual([]);
    const audit = (await t.ctx.db.selectFrom('audit_events').select('type').execute()).map((a) => a.type);
    expect(audit).toEqual(expect.arrayContaining(['bot.created', 'bot.rotated', 'bot.deleted']));
  });
});

describe('bots kept to site admins', () => {
  it('lets only a site admin create one once the site setting says so, and everyone again after', async () => {
    const t = app();
    // The first verified account is the site admin.
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const setting = async (bot_creators: string) => {
      const res = await t.put('/api/admin/settings/', { signups: 'open', bot_creators }, ada.token);
      expect(res.status, res.text).toBe(200);
      expect(res.body.bot_creators).toBe(bot_creators);
    };
    expect((await t.get('/api/admin/settings/', ada.token)).body.bot_creators).toBe('everyone');
    await setting('admins');
    expect((await t.post('/api/bots/', { username: 'ada-bot', display_name: 'A' }, ada.token)).status).toBe(
      201,
    );
    const refused = await t.post('/api/bots/', { username: 'grace-bot', display_name: 'G' }, grace.token);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(BOT_TEXT.noBots);
    // A change of sign-ups alone leaves it as it is.
    expect((await t.put('/api/admin/settings/', { signups: 'open' }, ada.token)).body.bot_creators).toBe(
      'admins',
    );
    const audit = await t.ctx.db.selectFrom('audit_events').select(['type', 'detail']).execute();
    expect(
      audit.some((a) => a.type === 'admin.settings.changed' && a.detail.includes('"bot_creators":"admins"')),
    ).toBe(true);
    await setting('everyone');
    expect(
      (await t.post('/api/bots/', { username: 'grace-bot', display_name: 'G' }, grace.token)).status,
    ).toBe(201);
  });
});

describe('the events guard', () => {
  const deployed = useTestApp();
  it('refuses loopback, private and plain-http addresses outside tests', async () => {
    const t = deployed();
    const [ada] = await people(t, 'Ada');
    for (const events_url of [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://10.0.0.8/x',
      'https://localhost:8443/',
    ]) {
      const res = await t.post(
        '/api/bots/',
        { username: 'guarded-bot', display_name: 'G', events_url },
        ada.token,
      );
      expect(res.status, events_url).toBe(400);
      expect(res.body.events_url).toEqual([BOT_TEXT.badEventsUrl]);
    }
  });
});
