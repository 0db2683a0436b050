import { pinnedLine } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../helpers/server-process';
import type { SignedUp } from '../helpers/test-app';
import { startChatOn, twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';

// Pins between two processes on one PostgreSQL and one Redis (the PostgreSQL + Redis pass only): a pin made
// through one process, and a deletion that unpins, reach the room's sockets on the other.
describe.skipIf(!twoProcessesEnabled)('pins across two processes', () => {
  const processes = useTwoProcesses();
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;
  let grace: SignedUp;
  const WAIT = 10_000;

  beforeAll(async () => {
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
  }, 60_000);

  it('a pin on A reaches the room on B with its line; a deletion on B unpins on A', async () => {
    const chatId = await startChatOn(a, ada, grace);
    const adaRoom = (await a.joinRoom(ada.token, chatId, 'ada')).client;
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace')).client;
    adaRoom.send({ type: 'chat_message', body: 'Pin me across', client_id: 'a-pin' });
    const message = (await adaRoom.next('chat_message', (f) => f.client_id === 'a-pin', WAIT)).message;

    const pinned = await a.request('PUT', `/api/chats/${chatId}/pins/${message.id}/`, { token: ada.token });
    expect(pinned.status, pinned.text).toBe(200);
    const frame = await graceRoom.next('pins_updated', () => true, WAIT);
    expect(frame).toEqual({ type: 'pins_updated', chat_id: chatId, pinned_ids: [message.id] });
    const line = await graceRoom.next('chat_message', (f) => f.message.kind === 'system', WAIT);
    expect(line.message.body).toBe(pinnedLine('Ada Tester'));

    const deleted = await b.request('DELETE', `/api/chats/${chatId}/messages/${message.id}/`, {
      token: ada.token,
    });
    expect(deleted.status, deleted.text).toBe(204);
    const unpinned = await adaRoom.next('pins_updated', (f) => f.pinned_ids.length === 0, WAIT);
    expect(unpinned.chat_id).toBe(chatId);
    expect((await a.get(`/api/chats/${chatId}/pins/`, grace.token)).body).toEqual([]);
  });
});
