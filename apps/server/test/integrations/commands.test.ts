import { COMMAND_TEXT, COMMAND_TIMEOUT_MS, SHRUG } from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detail, history, newClientId, people, startChat } from '../chats/chat-helpers';
import { addMembers, groupOf } from '../groups/group-helpers';
import { type BotReceiver, startBotReceiver } from '../helpers/bot-receiver';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { joinRoom } from '../helpers/ws-client';

// Slash commands: POST /api/chats/{chat_id}/commands/ runs a built-in (each as its screen's service call does) or
// a command a bot in the chat registered (POSTed, signed, to a local bot server; its answer posted by the bot or
// shown to the caller alone); GET lists what the composer suggests.
const app = useTestApp({ env: { EVENTS_ALLOW_PRIVATE_HOSTS: 'true' } });

let receiver: BotReceiver;
beforeEach(async () => {
  receiver = await startBotReceiver();
});
afterEach(async () => {
  await receiver.close();
});

const run = (t: TestApp, token: string, chatId: string, text: string, extra: Record<string, unknown> = {}) =>
  t.post(`/api/chats/${chatId}/commands/`, { text, client_id: newClientId('cmd'), ...extra }, token);

async function makeBot(t: TestApp, owner: string) {
  const res = await t.post(
    '/api/bots/',
    { username: `ops-${newClientId('b')}`.slice(0, 30), display_name: 'Ops bot' },
    owner,
  );
  expect(res.status, res.text).toBe(201);
  return res.body as { bot: { id: number; username: string }; signing_secret: string; token: string };
}

describe('built-in commands', () => {
  it('/me posts an action line and /shrug appends the shrug, live to the room and kept in history', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const room = await joinRoom(t, grace.token, chatId);

    const action = await run(t, ada.token, chatId, '/me waves hello');
    expect(action.status, action.text).toBe(200);
    expect(action.body).toMatchObject({
      visibility: 'chat',
      message: { body: '_Ada Tester waves hello_', sender: ada.user.id },
    });
    await room.next('chat_message', (f) => f.message.id === action.body.message.id);

    const shrug = await t.post(
      `/api/chats/${chatId}/commands/`,
      { command: 'shrug', args: 'no idea', client_id: 'shrug-1' },
      ada.token,
    );
    expect(shrug.status, shrug.text).toBe(200);
    expect(shrug.body.message.body).toBe(`no idea ${SHRUG}`);
    // A retry with the same client_id is the same message, not a second one.
    const again = await t.post(
      `/api/chats/${chatId}/commands/`,
      { command: 'shrug', args: 'no idea', client_id: 'shrug-1' },
      ada.token,
    );
    expect(again.body.message.id).toBe(shrug.body.message.id);
    const bodies = (await history(t, grace.token, chatId)).map((m) => m.body);
    expect(bodies).toEqual(expect.arrayContaining(['_Ada Tester waves hello_', `no idea ${SHRUG}`]));
    expect(bodies.filter((b) => b === `no idea ${SHRUG}`)).toHaveLength(1);
    // The action line's words are found by search.
    const found = await t.get('/api/search/messages/?q=waves', grace.token);
    expect(found.status, found.text).toBe(200);
    expect(JSON.stringify(found.body)).toContain('waves hello');

    expect((await run(t, ada.token, chatId, '/me')).body.detail).toBe(COMMAND_TEXT.meUsage);
  });

  it('runs in a thread: a message it posts is a reply there', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const root = await t.post(
      `/api/chats/${chatId}/messages/`,
      { body: 'Plan?', client_id: 'root-1' },
      grace.token,
    );
    expect(root.status, root.text).toBe(201);
    const reply = await run(t, ada.token, chatId, '/shrug', { thread_root: root.body.id });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.message).toMatchObject({ body: SHRUG, thread_root: root.body.id });
    const thread = await t.get(`/api/chats/${chatId}/messages/${root.body.id}/thread/`, grace.token);
    expect(thread.body.results.map((m: { id: number }) => m.id)).toEqual([reply.body.message.id]);
    expect((await history(t, grace.token, chatId)).map((m) => m.id)).not.toContain(reply.body.message.id);
  });

  it('/topic sets the description for admins and tells a member it is theirs', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Ops', 'Ada', 'Grace');
    const set = await run(t, ada.token, chatId, '/topic Release week: freeze on Friday');
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({
      visibility: 'me',
      text: COMMAND_TEXT.topicSet('Release week: freeze on Friday'),
    });
    expect((await detail(t, grace.token, chatId)).description).toBe('Release week: freeze on Friday');

    const refused = await run(t, grace.token, chatId, '/topic mine now');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(COMMAND_TEXT.onlyAdmins('topic'));
    expect((await detail(t, grace.token, chatId)).description).toBe('Release week: freeze on Friday');
  });

  it('/invite adds as add-members does, /leave leaves, and both are for groups', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Ops', 'Ada', 'Grace');
    const [alan] = await people(t, 'Alan');
    const invited = await run(t, ada.token, chatId, `/invite @${alan.user.username}`);
    expect(invited.status, invited.text).toBe(200);
    expect(invited.body).toEqual({ visibility: 'me', text: COMMAND_TEXT.invited('Alan Tester') });
    expect((await detail(t, alan.token, chatId)).members.map((m: { id: number }) => m.id)).toContain(
      alan.user.id,
    );
    expect((await run(t, ada.token, chatId, `/invite @${alan.user.username}`)).body.text).toBe(
      COMMAND_TEXT.alreadyIn,
    );
    expect((await run(t, ada.token, chatId, '/invite @nobody-at-all')).body.detail).toBe(COMMAND_TEXT.nobody);
    // A member may not add people, as in the group's settings.
    expect((await run(t, grace.token, chatId, `/invite @${ada.user.username}`)).status).toBe(403);

    const left = await run(t, grace.token, chatId, '/leave');
    expect(left.body).toEqual({ visibility: 'me', text: COMMAND_TEXT.left });
    expect((await t.get(`/api/chats/${chatId}/`, grace.token)).status).toBe(404);
    const lines = (await history(t, ada.token, chatId)).map((m) => m.body);
    expect(lines).toEqual(expect.arrayContaining(['Ada Tester added Alan Tester', 'Grace Tester left']));

    const privateChat = await startChat(t, ada.token, alan.user.username);
    const notHere = await run(t, ada.token, privateChat, '/leave');
    expect(notHere.status).toBe(400);
    expect(notHere.body.detail).toBe(COMMAND_TEXT.groupsOnly('leave'));
  });

  it('/mute mutes for a while or until unmuted, as the chat settings do', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const hour = await run(t, ada.token, chatId, '/mute 1h');
    expect(hour.status, hour.text).toBe(200);
    expect(hour.body.text).toBe(COMMAND_TEXT.muted('for 1 hour'));
    const muted = await detail(t, ada.token, chatId);
    expect(muted.muted).toBe(true);
    const until = Date.parse(muted.muted_until);
    expect(until - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(60 * 60_000);

    expect((await run(t, ada.token, chatId, '/mute')).body.text).toBe(COMMAND_TEXT.muted('until you unmute'));
    expect(await detail(t, ada.token, chatId)).toMatchObject({ muted: true, muted_until: null });
    const bad = await run(t, ada.token, chatId, '/mute 3 days');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe(COMMAND_TEXT.muteUsage);
    // Grace's mute is her own.
    expect((await detail(t, grace.token, chatId)).muted).toBe(false);
  });

  it('answers an unknown command, an outsider and a read token as the API does, and counts as sending', async () => {
    const t = app();
    const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const unknown = await run(t, ada.token, chatId, '/deploy now');
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe('Unknown command: /deploy');
    expect((await run(t, ada.token, chatId, 'no slash')).status).toBe(400);

    // Outsiders learn nothing: 404 as for no such chat, for the list and for running.
    expect((await run(t, eve.token, chatId, '/shrug')).status).toBe(404);
    expect((await t.get(`/api/chats/${chatId}/commands/`, eve.token)).status).toBe(404);
    expect((await run(t, eve.token, 'no-such-chat', '/shrug')).status).toBe(404);

    const read = await t.post('/api/users/tokens/', { name: 'reader', scopes: ['read'] }, ada.token);
    expect((await run(t, read.body.token, chatId, '/shrug')).status).toBe(403);
    expect((await t.get(`/api/chats/${chatId}/commands/`, read.body.token)).status).toBe(200);

    // The message limit holds: 20 in 10 s (the default), whichever way they are sent.
    let last = 200;
    for (let i = 0; i < 25 && last !== 429; i++)
      last = (await run(t, grace.token, chatId, `/shrug ${i}`)).status;
    expect(last).toBe(429);
  });

  it('lists what the caller may run there, and the commands of the bots that are members', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Ops', 'Ada', 'Grace');
    const names = async (token: string, id = chatId) =>
      ((await t.get(`/api/chats/${id}/commands/`, token)).body.results as { command: string }[]).map(
        (c) => c.command,
      );
    expect(await names(ada.token)).toEqual(['me', 'shrug', 'topic', 'invite', 'leave', 'mute']);
    expect(await names(grace.token)).toEqual(['me', 'shrug', 'leave', 'mute']);
    const privateChat = await startChat(t, ada.token, grace.user.username);
    expect(await names(ada.token, privateChat)).toEqual(['me', 'shrug', 'mute']);

    const made = await makeBot(t, ada.token);
    const registered = await t.post(
      `/api/bots/${made.bot.id}/commands/`,
      { command: '/Deploy', description: 'Ship a build', url: receiver.url('/deploy') },
      ada.token,
    );
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body).toMatchObject({ command: 'deploy', description: 'Ship a build' });
    // Not until the bot is in the chat.
    expect(await names(grace.token)).not.toContain('deploy');
    await addMembers(t, ada.token, chatId, { members: [made.bot.username] });
    const list = (await t.get(`/api/chats/${chatId}/commands/`, grace.token)).body.results;
    expect(list.at(-1)).toEqual({
      command: 'deploy',
      usage: '/deploy',
      description: 'Ship a build',
      bot: { id: made.bot.id, username: made.bot.username, display_name: 'Ops bot' },
    });
  });
});

describe('bot commands', () => {
  it('are registered by the bot’s owner only, with a checked address, listed and removed', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const made = await makeBot(t, ada.token);
    const path = `/api/bots/${made.bot.id}/commands/`;
    const body = { command: 'status', description: 'How things are', url: receiver.url('/status') };
    expect((await t.post(path, body, grace.token)).status).toBe(404);
    expect((await t.post(path, body, made.token)).status).toBe(403);
    expect((await t.post(path, { ...body, command: 'shrug' }, ada.token)).body.command).toEqual([
      COMMAND_TEXT.builtinName,
    ]);
    expect((await t.post(path, { ...body, command: 'no spaces' }, ada.token)).body.command).toEqual([
      COMMAND_TEXT.badName,
    ]);
    expect((await t.post(path, { ...body, url: 'ftp://example.com/' }, ada.token)).body.url).toEqual([
      COMMAND_TEXT.badUrl,
    ]);
    expect((await t.post(path, body, ada.token)).status).toBe(201);
    // The same name again replaces it.
    expect((await t.post(path, { ...body, description: 'Now better' }, ada.token)).status).toBe(201);
    const listed = await t.get(path, ada.token);
    expect(listed.body.results).toEqual([
      expect.objectContaining({ command: 'status', description: 'Now better', url: body.url }),
    ]);
    expect((await t.get(path, grace.token)).status).toBe(404);
    expect((await t.del(`${path}status/`, grace.token)).status).toBe(404);
    expect((await t.del(`${path}status/`, ada.token)).status).toBe(204);
    expect((await t.del(`${path}status/`, ada.token)).status).toBe(404);
    // A name no command can have (a NUL, which PostgreSQL refuses to compare) names none.
    expect((await t.del(`${path}st%00atus/`, ada.token)).status).toBe(404);
    expect((await t.get(path, ada.token)).body.results).toEqual([]);
  });

  async function botInGroup(t: TestApp) {
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Ops', 'Ada', 'Grace');
    const made = await makeBot(t, ada.token);
    receiver.secret = made.signing_secret;
    for (const command of ['deploy', 'whoami', 'slow', 'broken']) {
      const res = await t.post(
        `/api/bots/${made.bot.id}/commands/`,
        { command, url: receiver.url(`/${command}`) },
        ada.token,
      );
      expect(res.status, res.text).toBe(201);
    }
    await addMembers(t, ada.token, chatId, { members: [made.bot.username] });
    await t.ctx.lifecycle.settled();
    return { chatId, ada, grace, made };
  }

  it('POSTs the call signed, and posts a "chat" answer as a message from the bot to the room', async () => {
    const t = app();
    const { chatId, ada, grace, made } = await botInGroup(t);
    receiver.answer('/deploy', { json: { text: 'Deploying build 42 to production', visibility: 'chat' } });
    const room = await joinRoom(t, ada.token, chatId);
    const res = await run(t, grace.token, chatId, '/deploy  build 42 ');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      visibility: 'chat',
      message: { body: 'Deploying build 42 to production', sender: made.bot.id, sender_is_bot: true },
    });
    const call = await receiver.waitFor('/deploy');
    expect(call.signed).toBe(true);
    expect(call.headers['x-parley-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(call.json).toEqual({
      command: 'deploy',
      args: 'build 42',
      chat_id: chatId,
      user: { id: grace.user.id, username: grace.user.username, name: 'Grace Tester' },
    });
    const live = await room.next('chat_message', (f) => f.message.id === res.body.message.id);
    expect(live.message.sender_is_bot).toBe(true);
    expect((await history(t, ada.token, chatId)).map((m) => m.body)).toContain(
      'Deploying build 42 to production',
    );
  });

  it('shows a "me" answer to the caller alone and stores nothing', async () => {
    const t = app();
    const { chatId, grace } = await botInGroup(t);
    receiver.answer('/whoami', { json: { text: 'You are Grace', visibility: 'me' } });
    const before = (await history(t, grace.token, chatId)).length;
    const res = await run(t, grace.token, chatId, '/whoami');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ visibility: 'me', text: 'You are Grace' });
    expect(await history(t, grace.token, chatId)).toHaveLength(before);
  });

  it(`says the command did not answer when the bot takes longer than ${COMMAND_TIMEOUT_MS} ms`, async () => {
    const t = app();
    const { chatId, grace } = await botInGroup(t);
    receiver.answer('/slow', {
      delayMs: COMMAND_TIMEOUT_MS + 1500,
      json: { text: 'late', visibility: 'chat' },
    });
    const started = Date.now();
    const res = await run(t, grace.token, chatId, '/slow');
    expect(Date.now() - started).toBeLessThan(COMMAND_TIMEOUT_MS + 1000);
    expect(res.body).toEqual({ visibility: 'me', text: COMMAND_TEXT.timeout });
    expect((await history(t, grace.token, chatId)).map((m) => m.body)).not.toContain('late');
  });

  it('answers 502 for a failing or malformed answer', async () => {
    const t = app();
    const { chatId, grace } = await botInGroup(t);
    receiver.answer('/broken', { status: 500, json: { text: 'oops' } }, { json: { nope: true } });
    for (let i = 0; i < 2; i++) {
      const res = await run(t, grace.token, chatId, '/broken');
      expect(res.status).toBe(502);
      expect(res.body.detail).toBe(COMMAND_TEXT.badAnswer('broken'));
    }
  });
});

describe('bot commands without the test switch', () => {
  const strict = useTestApp();
  it('refuse a loopback address', async () => {
    const t = strict();
    const [ada] = await people(t, 'Ada');
    const made = await makeBot(t, ada.token);
    const res = await t.post(
      `/api/bots/${made.bot.id}/commands/`,
      { command: 'local', url: 'https://127.0.0.1:8443/hook' },
      ada.token,
    );
    expect(res.status).toBe(400);
    expect(res.body.url).toEqual([COMMAND_TEXT.badUrl]);
  });
});
