import { WEBHOOK_MAX_TEXT, WEBHOOK_PER_MINUTE, WEBHOOK_TEXT } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOKS_PER_HOUR } from '../../src/modules/webhooks/webhooks.routes';
import { addMember, createGroup, myChats, people, startChat } from '../chats/chat-helpers';
import type { ServerProcess } from '../helpers/server-process';
import type { SignedUp, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { startChatOn, twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';
import { joinRoom, openNotifications } from '../helpers/ws-client';

// Incoming webhooks: made, listed and revoked under /api/chats/{chat_id}/webhooks/ by who may manage the chat,
// and POST /hooks/{secret} posting into the chat as an app, live to its members.
const app = useTestApp();

type Poster = Pick<TestApp, 'request'>;

async function makeHook(t: Poster, token: string, chatId: string, name = 'CI') {
  const res = await t.request('POST', `/api/chats/${chatId}/webhooks/`, { token, json: { name } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; name: string; url: string; created_by: number; created_at: string };
}

/** The hook's path (its URL names PUBLIC_URL, which a test server need not listen on). */
const hookPath = (url: string) => new URL(url).pathname;

const postJson = (t: Poster, url: string, json: unknown) => t.request('POST', hookPath(url), { json });

const postForm = (t: Poster, url: string, form: Record<string, string>) =>
  t.request('POST', hookPath(url), {
    rawBody: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/** Ada owns a group with Grace (a plain member) and Eve outside it. */
async function group(t: TestApp) {
  const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
  const chatId = await createGroup(t, ada.token, 'Ops');
  await addMember(t, chatId, grace.user.id);
  return { ada, grace, eve, chatId };
}

describe('managing webhooks', () => {
  it('is for a group’s owner and admins: a member gets 403, an outsider 404; the URL is shown once', async () => {
    const t = app();
    const { ada, grace, eve, chatId } = await group(t);
    const hook = await makeHook(t, ada.token, chatId, ' Deploys ');
    expect(hook).toMatchObject({ name: 'Deploys', created_by: ada.user.id });
    const secret = hookPath(hook.url).split('/')[2];
    expect(hookPath(hook.url)).toBe(`/hooks/${secret}`);
    // At least 128 bits: 43 base62 characters are 256.
    expect(secret).toMatch(/^[0-9A-Za-z]{43}$/);

    const asMember = await t.post(`/api/chats/${chatId}/webhooks/`, { name: 'Mine' }, grace.token);
    expect(asMember.status).toBe(403);
    expect(asMember.body.detail).toBe(WEBHOOK_TEXT.adminsOnly);
    expect((await t.get(`/api/chats/${chatId}/webhooks/`, grace.token)).status).toBe(403);
    expect((await t.del(`/api/chats/${chatId}/webhooks/${hook.id}/`, grace.token)).status).toBe(403);
    expect((await t.post(`/api/chats/${chatId}/webhooks/`, { name: 'x' }, eve.token)).status).toBe(404);
    expect((await t.get(`/api/chats/${chatId}/webhooks/`, eve.token)).status).toBe(404);
    const blank = await t.post(`/api/chats/${chatId}/webhooks/`, { name: '  ' }, ada.token);
    expect(blank.status).toBe(400);
    expect(blank.body.name).toBeDefined();

    // An admin may.
    const promoted = await t.request('PATCH', `/api/chats/${chatId}/members/${grace.user.id}/`, {
      token: ada.token,
      json: { role: 'admin' },
    });
    expect(promoted.status, promoted.text).toBe(200);
    await makeHook(t, grace.token, chatId, 'Alerts');

    const listed = await t.get(`/api/chats/${chatId}/webhooks/`, ada.token);
    expect(listed.status).toBe(200);
    expect(listed.body.results.map((h: { name: string }) => h.name)).toEqual(['Deploys', 'Alerts']);
    expect(listed.text).not.toContain(secret);
    expect(listed.body.results[0]).not.toHaveProperty('url');
    // The database holds the secret's hash only.
    const rows = await t.ctx.db.selectFrom('webhooks').selectAll().execute();
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(secret);

    expect((await t.del(`/api/chats/${chatId}/webhooks/${hook.id}/`, ada.token)).status).toBe(204);
    expect((await t.del(`/api/chats/${chatId}/webhooks/${hook.id}/`, ada.token)).status).toBe(404);
    expect((await t.del(`/api/chats/${chatId}/webhooks/abc/`, ada.token)).status).toBe(404);
    expect((await postJson(t, hook.url, { text: 'after revoking' })).status).toBe(404);
    const audit = await t.ctx.db.selectFrom('audit_events').select('type').execute();
    expect(audit.map((a) => a.type)).toEqual(expect.arrayContaining(['webhook.created', 'webhook.revoked']));
  });

  it('is for either person of a private chat, with a session or a write token (a read token may list)', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    await makeHook(t, ada.token, chatId, 'Ada’s');
    const write = await t.post('/api/users/tokens/', { name: 'w', scopes: ['read', 'write'] }, grace.token);
    await makeHook(t, write.body.token, chatId, 'Grace’s');
    const read = await t.post('/api/users/tokens/', { name: 'r', scopes: ['read'] }, grace.token);
    expect((await t.post(`/api/chats/${chatId}/webhooks/`, { name: 'no' }, read.body.token)).status).toBe(
      403,
    );
    expect((await t.get(`/api/chats/${chatId}/webhooks/`, read.body.token)).body.results).toHaveLength(2);
  });

  it(`lets a person make ${WEBHOOKS_PER_HOUR} an hour, then answers 429 with Retry-After`, async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    for (let i = 0; i < WEBHOOKS_PER_HOUR; i++) await makeHook(t, ada.token, chatId, `n${i}`);
    const limited = await t.post(`/api/chats/${chatId}/webhooks/`, { name: 'more' }, ada.token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Grace's count is her own.
    await makeHook(t, grace.token, chatId, 'Grace’s');
  });
});

describe('posting to a webhook', () => {
  it('takes JSON text or body, or a form payload; ignores Slack’s username and icon_url', async () => {
    const t = app();
    const { ada, grace, chatId } = await group(t);
    const hook = await makeHook(t, ada.token, chatId, 'Builds');
    const graceRoom = await joinRoom(t, grace.token, chatId);
    // Ada is away from the room: she is notified, the notice naming the hook.
    const adaNotes = (await openNotifications(t, ada.token)).client;

    const slack = await postJson(t, hook.url, {
      text: 'Build 42 passed',
      username: 'Ada Tester',
      icon_url: 'https://evil.example/ada.png',
    });
    expect(slack.status, slack.text).toBe(200);
    expect(slack.text).toBe('ok');
    expect(slack.headers.get('content-type')).toContain('text/plain');
    const live = (await graceRoom.next('chat_message')).message;
    expect(live).toMatchObject({
      body: 'Build 42 passed',
      kind: 'user',
      sender: null,
      sender_name: 'Builds',
      sender_is_app: true,
    });
    expect(JSON.stringify(live)).not.toContain('evil.example');
    const notice = await adaNotes.next('new_message');
    expect(notice.message).toMatchObject({
      sender: 'Builds',
      message: 'Build 42 passed',
      chatroom_id: chatId,
    });

    expect((await postJson(t, hook.url, { body: 'From body' })).status).toBe(200);
    expect((await graceRoom.next('chat_message')).message.body).toBe('From body');
    const form = await postForm(t, hook.url, { payload: JSON.stringify({ text: 'From a form' }) });
    expect(form.status, form.text).toBe(200);
    expect((await graceRoom.next('chat_message')).message.body).toBe('From a form');

    // It counts unread for the members and is found by search.
    const chats = await myChats(t, grace.token);
    expect(chats.find((c) => c.chat_id === chatId)?.unread_count).toBe(3);
    const found = await t.get('/api/search/messages/?q=passed', grace.token);
    expect(found.status, found.text).toBe(200);
    expect(JSON.stringify(found.body)).toContain('Build 42 passed');
  });

  it('mentions the members its text names with @username, as a person’s message does', async () => {
    const t = app();
    const { ada, grace, eve, chatId } = await group(t);
    const hook = await makeHook(t, ada.token, chatId, 'Deploys');
    const graceRoom = await joinRoom(t, grace.token, chatId);
    const posted = await postJson(t, hook.url, {
      text: `@${grace.user.username} the deploy failed; @${eve.user.username} is not here`,
    });
    expect(posted.status, posted.text).toBe(200);
    const live = (await graceRoom.next('chat_message')).message;
    // Only members are mentioned.
    expect(live.mentions).toEqual([grace.user.id]);
  });

  it('answers 404 to an unknown secret, 400 to blank, too long or shapeless posts', async () => {
    const t = app();
    const { ada, chatId } = await group(t);
    const hook = await makeHook(t, ada.token, chatId);
    expect((await t.request('POST', '/hooks/nope', { json: { text: 'hi' } })).status).toBe(404);
    expect((await t.request('POST', `${hookPath(hook.url)}x`, { json: { text: 'hi' } })).status).toBe(404);
    // An unknown hook is a 404 whatever was sent.
    expect((await postForm(t, `${hook.url}x`, { other: 'x' })).status).toBe(404);

    const blank = await postJson(t, hook.url, { text: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.detail).toBe(WEBHOOK_TEXT.badPayload);
    expect((await postJson(t, hook.url, {})).status).toBe(400);
    expect((await postJson(t, hook.url, { text: 42 })).status).toBe(400);
    expect((await postForm(t, hook.url, { text: 'not in a payload' })).status).toBe(400);
    expect((await postForm(t, hook.url, { payload: '{not json' })).status).toBe(400);
    const long = await postJson(t, hook.url, { text: 'x'.repeat(WEBHOOK_MAX_TEXT + 1) });
    expect(long.status).toBe(400);
    expect(long.body.detail).toBe(WEBHOOK_TEXT.tooLong);
    expect((await postJson(t, hook.url, { text: 'x'.repeat(WEBHOOK_MAX_TEXT) })).status).toBe(200);
  });

  it(`allows ${WEBHOOK_PER_MINUTE} posts a minute per hook, then 429 with Retry-After`, async () => {
    const t = app();
    const { ada, chatId } = await group(t);
    const hook = await makeHook(t, ada.token, chatId, 'Noisy');
    const other = await makeHook(t, ada.token, chatId, 'Quiet');
    for (let i = 0; i < WEBHOOK_PER_MINUTE; i++)
      expect((await postJson(t, hook.url, { text: `n${i}` })).status).toBe(200);
    const limited = await postJson(t, hook.url, { text: 'one too many' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another hook of the same chat has its own count.
    expect((await postJson(t, other.url, { text: 'still fine' })).status).toBe(200);
  });

  it('goes with its chat: a deleted group’s hooks are gone', async () => {
    const t = app();
    const { ada, chatId } = await group(t);
    const hook = await makeHook(t, ada.token, chatId);
    const deleted = await t.del(`/api/chats/${chatId}/`, ada.token);
    expect(deleted.status, deleted.text).toBeLessThan(300);
    expect(await t.ctx.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
    expect((await postJson(t, hook.url, { text: 'anyone?' })).status).toBe(404);
  });
});

// PostgreSQL + Redis only: the hook POSTed to one process, the member's socket on the other.
describe.skipIf(!twoProcessesEnabled)('webhooks across two processes', () => {
  const processes = useTwoProcesses();
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;
  let grace: SignedUp;

  beforeAll(async () => {
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
  }, 60_000);

  it('a post to A reaches a room on B live, and the limit is one count for both', async () => {
    const chatId = await startChatOn(a, ada, grace);
    const hook = await makeHook(b, ada.token, chatId, 'Across');
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace')).client;
    const sent = await postJson(a, hook.url, { text: 'From process A' });
    expect(sent.status, sent.text).toBe(200);
    const live = await graceRoom.next('chat_message', () => true, 10_000);
    expect(live.message).toMatchObject({
      body: 'From process A',
      sender_is_app: true,
      sender_name: 'Across',
    });
    const statuses: number[] = [];
    for (let i = 1; i < WEBHOOK_PER_MINUTE + 1; i++)
      statuses.push((await postJson(i % 2 ? b : a, hook.url, { text: `n${i}` })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(WEBHOOK_PER_MINUTE - 1);
    expect(statuses.at(-1)).toBe(429);
  });
});
