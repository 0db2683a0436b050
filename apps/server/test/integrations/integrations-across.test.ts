import { beforeAll, describe, expect, it } from 'vitest';
import { type BotReceiver, startBotReceiver } from '../helpers/bot-receiver';
import type { ServerProcess } from '../helpers/server-process';
import type { SignedUp } from '../helpers/test-app';
import { startChatOn, twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';

// Tokens and bots between two processes on one PostgreSQL and one Redis (the PostgreSQL + Redis pass only): a
// message POSTed with a token to one process reaches a socket on the other; a token revoked on one closes its
// socket on the other; a bot's event is sent once, by the process that stored the message.
describe.skipIf(!twoProcessesEnabled)('tokens and bots across two processes', () => {
  const processes = useTwoProcesses({ EVENTS_ALLOW_PRIVATE_HOSTS: 'true' });
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;
  let grace: SignedUp;
  let receiver: BotReceiver;
  const WAIT = 10_000;

  beforeAll(async () => {
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
    receiver = await startBotReceiver();
    return () => receiver.close();
  }, 60_000);

  it('a token sends on A to a room on B, and revoking it on B closes its socket on A', async () => {
    const chatId = await startChatOn(a, ada, grace);
    const minted = await a.post(
      '/api/users/tokens/',
      { name: 'script', scopes: ['read', 'write'] },
      ada.token,
    );
    expect(minted.status, minted.text).toBe(201);
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace')).client;
    const tokenRoom = (await a.joinRoom(minted.body.token, chatId, 'token')).client;
    const sent = await a.post(
      `/api/chats/${chatId}/messages/`,
      { body: 'From a script', client_id: 's-1' },
      minted.body.token,
    );
    expect(sent.status, sent.text).toBe(201);
    expect(
      (await graceRoom.next('chat_message', (f) => f.message.id === sent.body.id, WAIT)).message.body,
    ).toBe('From a script');
    const revoked = await b.request('DELETE', `/api/users/tokens/${minted.body.id}/`, { token: ada.token });
    expect(revoked.status).toBe(204);
    await tokenRoom.closed(WAIT);
  });

  it('a bot made on A gets one signed event for a message sent on B', async () => {
    const group = await a.post('/api/chats/group/new/', { group_name: 'Ops' }, ada.token);
    const chatId = group.body.chat_id as string;
    const bot = await a.post(
      '/api/bots/',
      { username: 'across-bot', display_name: 'Across', events_url: receiver.url('/across') },
      ada.token,
    );
    expect(bot.status, bot.text).toBe(201);
    receiver.secret = bot.body.signing_secret;
    for (const member of [grace.user.username, 'across-bot']) {
      const added = await a.post(`/api/chats/${chatId}/members/`, { members: [member] }, ada.token);
      expect(added.status, added.text).toBe(200);
    }
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace')).client;
    graceRoom.send({ type: 'chat_message', body: 'Deploy please', client_id: 'g-1' });
    await graceRoom.next('chat_message', (f) => f.client_id === 'g-1', WAIT);
    const event = await receiver.waitFor('/across', 1, WAIT);
    expect(event.signed).toBe(true);
    expect(event.json.message.body).toBe('Deploy please');
    // The other process does not send it again: the next event is the next message's.
    graceRoom.send({ type: 'chat_message', body: 'And another', client_id: 'g-2' });
    const next = await receiver.waitFor('/across', 2, WAIT);
    expect(next.json.message.body).toBe('And another');
  });
});
