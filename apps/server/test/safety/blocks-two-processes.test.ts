import { SAFETY_TEXT } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../helpers/server-process';
import type { Json, SignedUp } from '../helpers/test-app';
import { startChatOn, twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';

// Blocking across two real processes (A and B) on one PostgreSQL schema and one Redis: Grace blocks
// Ada on B while Ada is connected to A. Ada's messages are refused on A, and neither her typing, her reads nor her
// presence reach Grace on B, while Alan (on A) still sees and hears both.

const WAIT = 10_000;

describe.skipIf(!twoProcessesEnabled)('a block across two processes', () => {
  const processes = useTwoProcesses();
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;
  let grace: SignedUp;
  let alan: SignedUp;

  beforeAll(async () => {
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
    alan = await a.signUp({ first_name: 'Alan', last_name: 'Tester' });
  }, 60_000);

  async function call(p: ServerProcess, method: string, urlPath: string, token: string, json?: unknown) {
    return p.request(method, urlPath, { token, json });
  }

  it('refuses her messages on the other process and hides typing, reads and presence there', async () => {
    const chatId = await startChatOn(a, ada, grace);
    const group = await call(b, 'POST', '/api/chats/group/new/', grace.token, { group_name: 'Shared' });
    const groupId: string = group.body.chat_id;
    for (const p of [ada, alan]) {
      const added = await call(b, 'POST', `/api/chats/${groupId}/members/`, grace.token, {
        username: p.user.username,
      });
      expect(added.status, added.text).toBeLessThan(300);
    }

    const adaRoom = (await a.joinRoom(ada.token, chatId, 'ada private')).client;
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace private')).client;
    await adaRoom.next('in_chat_count', (f) => f.count === 2, WAIT);
    const adaGroup = (await a.joinRoom(ada.token, groupId, 'ada group')).client;
    const alanGroup = (await a.joinRoom(alan.token, groupId, 'alan group')).client;
    const graceGroup = (await b.joinRoom(grace.token, groupId, 'grace group')).client;
    await alanGroup.next('in_chat_count', (f) => f.count === 3, WAIT);

    const blocked = await call(b, 'POST', `/api/users/${ada.user.username}/block/`, grace.token);
    expect(blocked.status, blocked.text).toBe(200);

    // A (which did not take the block) refuses Ada's message at once, and the room on B hears nothing of it.
    adaRoom.send({ type: 'chat_message', body: 'across', client_id: 'x-1' });
    expect((await adaRoom.next('error', (f) => f.client_id === 'x-1', WAIT)).message).toBe(
      SAFETY_TEXT.cannotMessage,
    );
    expect((await call(a, 'GET', `/api/chats/start/${grace.user.username}/`, ada.token)).status).toBe(403);

    // B's private room re-announces itself without Ada; A's Ada hears the room without Grace.
    await graceRoom.next('in_chat_users_update', (f) => f.user_ids.length === 1, WAIT);
    await adaRoom.next('in_chat_users_update', (f) => f.user_ids.length === 1, WAIT);

    // Typing on A: Ada's reaches Alan (A), not Grace (B); Alan's, published after it on A, reaches Grace on B.
    adaGroup.send({ type: 'typing', is_typing: true });
    await alanGroup.next('typing', (f) => f.user_id === ada.user.id, WAIT);
    alanGroup.send({ type: 'typing', is_typing: true });
    await graceGroup.next('typing', (f) => f.user_id === alan.user.id, WAIT);
    expect(graceGroup.received('typing', (f) => f.user_id === ada.user.id)).toEqual([]);

    // Reads on A: Grace's message becomes read when Ada reads it last; Alan hears it, Grace (on B) does not.
    graceGroup.send({ type: 'chat_message', body: 'read me', client_id: 'g-1' });
    const hers = (await graceGroup.next('chat_message', (f) => f.client_id === 'g-1', WAIT)).message as Json;
    alanGroup.send({ type: 'read_messages', message_ids: [hers.id] });
    await graceGroup.next('messages_delivered', (f) => f.message_ids.includes(hers.id), WAIT);
    adaGroup.send({ type: 'read_messages', message_ids: [hers.id] });
    await alanGroup.next('messages_read', (f) => f.user_id === ada.user.id, WAIT);
    alanGroup.send({ type: 'typing', is_typing: false });
    await graceGroup.next('typing', (f) => f.user_id === alan.user.id && !f.is_typing, WAIT);
    expect(graceGroup.received('messages_read')).toEqual([]);

    // Presence: on B, Grace sees Ada offline in the group; Alan (asking A) sees both online.
    const onB = await call(b, 'GET', `/api/chats/${groupId}/`, grace.token);
    expect(onB.body.members.find((m: Json) => m.id === ada.user.id)).toMatchObject({ is_online: false });
    const onA = await call(a, 'GET', `/api/chats/${groupId}/`, alan.token);
    expect(onA.body.members.find((m: Json) => m.id === ada.user.id).is_online).toBe(true);
    expect(onA.body.members.find((m: Json) => m.id === grace.user.id).is_online).toBe(true);

    // Unblocked on A, B lets Ada's message through to Grace.
    expect((await call(a, 'DELETE', `/api/users/${ada.user.username}/block/`, grace.token)).status).toBe(200);
    adaRoom.send({ type: 'chat_message', body: 'hello again', client_id: 'x-2' });
    const echo = await adaRoom.next('chat_message', (f) => f.client_id === 'x-2', WAIT);
    await graceRoom.next('chat_message', (f) => f.message.id === echo.message.id, WAIT);

    await Promise.all([adaRoom, graceRoom, adaGroup, alanGroup, graceGroup].map((c) => c.close()));
  });
});
