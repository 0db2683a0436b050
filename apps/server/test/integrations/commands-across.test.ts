import { beforeAll, describe, expect, it } from 'vitest';
import { type BotReceiver, startBotReceiver } from '../helpers/bot-receiver';
import type { ServerProcess } from '../helpers/server-process';
import type { SignedUp } from '../helpers/test-app';
import { twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';

// Slash commands between two processes on one PostgreSQL and one Redis (the PostgreSQL + Redis pass only): a
// bot's command registered on A and run on B, whose 'chat' answer reaches a member's room on A; a built-in run on
// A reaches a room on B.
describe.skipIf(!twoProcessesEnabled)('slash commands across two processes', () => {
  const processes = useTwoProcesses({ EVENTS_ALLOW_PRIVATE_HOSTS: 'true' });
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;
  let grace: SignedUp;
  let receiver: BotReceiver;
  let chatId: string;
  const WAIT = 10_000;

  beforeAll(async () => {
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
    receiver = await startBotReceiver();
    const group = await a.post('/api/chats/group/new/', { group_name: 'Ops' }, ada.token);
    chatId = group.body.chat_id as string;
    const added = await a.post(
      `/api/chats/${chatId}/members/`,
      { members: [grace.user.username] },
      ada.token,
    );
    expect(added.status, added.text).toBe(200);
    return () => receiver.close();
  }, 60_000);

  it("a bot's 'chat' answer to a command run on B reaches a room on A", async () => {
    const bot = await a.post('/api/bots/', { username: 'cmd-bot', display_name: 'Commands' }, ada.token);
    expect(bot.status, bot.text).toBe(201);
    receiver.secret = bot.body.signing_secret;
    receiver.answer('/deploy', { json: { text: 'Deploying now', visibility: 'chat' } });
    const registered = await a.post(
      `/api/bots/${bot.body.bot.id}/commands/`,
      { command: 'deploy', description: 'Ship it', url: receiver.url('/deploy') },
      ada.token,
    );
    expect(registered.status, registered.text).toBe(201);
    const added = await a.post(`/api/chats/${chatId}/members/`, { members: ['cmd-bot'] }, ada.token);
    expect(added.status, added.text).toBe(200);

    const listed = await b.get(`/api/chats/${chatId}/commands/`, grace.token);
    expect(listed.body.results.map((c: { command: string }) => c.command)).toContain('deploy');
    const adaRoom = (await a.joinRoom(ada.token, chatId, 'ada')).client;
    const res = await b.post(
      `/api/chats/${chatId}/commands/`,
      { text: '/deploy', client_id: 'd-1' },
      grace.token,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.visibility).toBe('chat');
    const live = await adaRoom.next('chat_message', (f) => f.message.id === res.body.message.id, WAIT);
    expect(live.message).toMatchObject({
      body: 'Deploying now',
      sender: bot.body.bot.id,
      sender_is_bot: true,
    });
    expect((await receiver.waitFor('/deploy', 1, WAIT)).signed).toBe(true);
  });

  it('/shrug run on A reaches a room on B', async () => {
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace')).client;
    const res = await a.post(
      `/api/chats/${chatId}/commands/`,
      { text: '/shrug', client_id: 's-1' },
      ada.token,
    );
    expect(res.status, res.text).toBe(200);
    await graceRoom.next('chat_message', (f) => f.message.id === res.body.message.id, WAIT);
  });
});
