import { beforeAll, describe, expect, it } from 'vitest';
import { historyAfter } from '../helpers/chat-data';
import type { ServerProcess } from '../helpers/server-process';
import type { Json, SignedUp } from '../helpers/test-app';
import { startChatOn, twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';
import type { WsClient } from '../helpers/ws-client';

// Edits, deletions and reactions across processes: two real Parley processes (A and B) on one PostgreSQL schema and one Redis. Ada is
// connected to A, Grace to B; each sees the other's edits, deletions, reactions and replies live.

const WAIT = 10_000;

describe.skipIf(!twoProcessesEnabled)('edits, deletions and reactions across two processes', () => {
  const processes = useTwoProcesses();
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;
  let grace: SignedUp;
  let chatId: string;

  beforeAll(async () => {
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
    chatId = await startChatOn(a, ada, grace);
  }, 120_000);

  /** A call on one process, asserting its status; the answer's body. */
  async function call(p: ServerProcess, method: string, urlPath: string, token: string, status: number) {
    const res = await p.request(method, urlPath, { token });
    expect(res.status, `${p.label} ${method} ${urlPath}: ${res.text}`).toBe(status);
    return res.body as Json;
  }

  /** Sends a chat_message (optionally a reply) and waits for its echo; the stored message. */
  async function send(client: WsClient, body: string, clientId: string, replyTo?: number): Promise<Json> {
    client.send({
      type: 'chat_message',
      body,
      client_id: clientId,
      ...(replyTo ? { reply_to: replyTo } : {}),
    });
    return (await client.next('chat_message', (f) => f.client_id === clientId, WAIT)).message;
  }

  it('each side sees the other side’s edits, deletions, reactions and replies live', async () => {
    const adaRoom = (await a.joinRoom(ada.token, chatId, 'ada room')).client;
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace room')).client;
    await adaRoom.next('in_chat_count', (f) => f.count === 2, WAIT);
    const messages = `/api/chats/${chatId}/messages`;

    const first = await send(adaRoom, 'Frist from A', 'ada-1');
    const second = await send(adaRoom, 'Regrettable', 'ada-2');
    await graceRoom.next('chat_message', (f) => f.message.id === second.id, WAIT);

    // A reply from B quotes A's message, and A receives it.
    const reply = await send(graceRoom, 'Answer from B', 'grace-1', first.id);
    const replyAtAda = await adaRoom.next('chat_message', (f) => f.message.id === reply.id, WAIT);
    expect(replyAtAda.message.reply_to).toEqual({
      id: first.id,
      sender_id: ada.user.id,
      sender_name: 'Ada Tester',
      body: 'Frist from A',
      is_deleted: false,
    });

    // An edit on A reaches B.
    const edited = await a.request('PATCH', `${messages}/${first.id}/`, {
      json: { body: 'First from A' },
      token: ada.token,
    });
    expect(edited.status, edited.text).toBe(200);
    const updateAtGrace = await graceRoom.next('message_updated', (f) => f.message.id === first.id, WAIT);
    expect(updateAtGrace.message).toMatchObject({ body: 'First from A', edited_at: edited.body.edited_at });

    // An edit on B reaches A.
    const graceEdit = await b.request('PATCH', `${messages}/${reply.id}/`, {
      json: { body: 'Answer, edited on B' },
      token: grace.token,
    });
    expect(graceEdit.status, graceEdit.text).toBe(200);
    const updateAtAda = await adaRoom.next('message_updated', (f) => f.message.id === reply.id, WAIT);
    expect(updateAtAda.message.body).toBe('Answer, edited on B');

    // A reaction on B reaches A, with who reacted; one on A reaches B.
    const reacted = await call(
      b,
      'PUT',
      `${messages}/${first.id}/reactions/${encodeURIComponent('👍')}/`,
      grace.token,
      200,
    );
    expect(reacted.reactions).toEqual([{ emoji: '👍', count: 1, me: true, user_ids: [grace.user.id] }]);
    const reactionsAtAda = await adaRoom.next('reactions_updated', (f) => f.message_id === first.id, WAIT);
    expect(reactionsAtAda.reactions).toMatchObject([{ emoji: '👍', count: 1, user_ids: [grace.user.id] }]);
    await call(a, 'PUT', `${messages}/${reply.id}/reactions/${encodeURIComponent('❤️')}/`, ada.token, 200);
    const reactionsAtGrace = await graceRoom.next(
      'reactions_updated',
      (f) => f.message_id === reply.id,
      WAIT,
    );
    expect(reactionsAtGrace.reactions).toMatchObject([{ emoji: '❤️', count: 1, user_ids: [ada.user.id] }]);

    // A deletion on A reaches B.
    await call(a, 'DELETE', `${messages}/${second.id}/`, ada.token, 204);
    expect(await graceRoom.next('message_deleted', () => true, WAIT)).toEqual({
      type: 'message_deleted',
      message_id: second.id,
    });

    // Both processes answer the same history; each socket got each change once.
    const onB = await historyAfter(b, grace.token, chatId, 0);
    const onA = await historyAfter(a, ada.token, chatId, 0);
    const shape = (m: Json) => [
      m.id,
      m.body,
      m.is_deleted,
      m.edited_at !== null,
      m.reactions.map((r: Json) => r.emoji),
    ];
    expect(onB.map(shape)).toEqual([
      [first.id, 'First from A', false, true, ['👍']],
      [second.id, '', true, false, []],
      [reply.id, 'Answer, edited on B', false, true, ['❤️']],
    ]);
    expect(onA.map(shape)).toEqual(onB.map(shape));
    for (const room of [adaRoom, graceRoom]) {
      expect(room.received('message_updated')).toHaveLength(2);
      expect(room.received('reactions_updated')).toHaveLength(2);
      expect(room.received('message_deleted')).toHaveLength(1);
    }
    await Promise.all([adaRoom.close(), graceRoom.close()]);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });
});
