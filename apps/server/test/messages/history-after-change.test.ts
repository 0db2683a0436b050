import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { addMember, createGroup, history, newClientId, people } from '../chats/chat-helpers';
import { deleteGroup } from '../groups/group-helpers';
import { type Json, type TestApp, useTestApp } from '../helpers/test-app';
import { joinRoom, type WsClient } from '../helpers/ws-client';
import { deleteMessage, editMessage, expectStatus, pairInRoom, react, send } from './essentials-helpers';

// A history page (and a thread's first page) read again after the messages change shows the change at once:
// each test reads the page, changes the messages one way (including a cascade from a deleted account or group,
// and another connection's write to the SQLite file), and reads it again. On SQLite the newest page is kept
// until the messages change (newest-pages.ts): the first read keeps it, the second must not be served from it.
// On PostgreSQL nothing is kept, and the same reads must hold.
const app = useTestApp();

const bodies = (page: { body: string }[]) => page.map((m) => m.body);

/** Sends a reply in the thread under `root` and waits for its echo; the stored message. */
async function replyIn(client: WsClient, root: number, body: string): Promise<Json> {
  const clientId = newClientId('thread');
  client.send({ type: 'chat_message', body, client_id: clientId, thread_root: root });
  return (await client.next('chat_message', (f) => f.client_id === clientId)).message;
}

/** A thread's first page, as its pane opens it. */
async function threadPage(t: TestApp, token: string, chatId: string, root: number): Promise<Json> {
  const res = await t.get(`/api/chats/${chatId}/messages/${root}/thread/`, token);
  expectStatus(res, 200);
  return res.body;
}

describe('the newest history page and a thread’s first page, read again after a change', () => {
  it('shows a new message, an edit, a deletion and a reaction at once', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, rooms } = await pairInRoom(t);
    const first = await send(adaRoom, 'First');
    expect(bodies(await history(t, grace.token, chatId))).toEqual(['First']);

    const second = await send(adaRoom, 'Second');
    expect(bodies(await history(t, grace.token, chatId))).toEqual(['First', 'Second']);

    expectStatus(await editMessage(t, ada.token, chatId, first.id, 'First, edited'), 200);
    expect(bodies(await history(t, grace.token, chatId))).toEqual(['First, edited', 'Second']);

    expectStatus(await react(t, grace.token, chatId, second.id, '👍'), 200);
    const reacted = (await history(t, ada.token, chatId)).find((m) => m.id === second.id);
    expect(reacted.reactions).toEqual([expect.objectContaining({ emoji: '👍', count: 1 })]);

    expectStatus(await deleteMessage(t, ada.token, chatId, second.id), 204);
    const page = await history(t, grace.token, chatId);
    expect(page.find((m) => m.id === second.id)).toMatchObject({ is_deleted: true, reactions: [] });
    for (const room of rooms) room.close();
  });

  it('a thread’s first page shows a new reply, an edit, a deletion and a reaction at once', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom, rooms } = await pairInRoom(t);
    const root = await send(adaRoom, 'Lunch?');
    const first = await replyIn(graceRoom, root.id, 'Pizza');
    expect(bodies((await threadPage(t, ada.token, chatId, root.id)).results)).toEqual(['Pizza']);

    const second = await replyIn(adaRoom, root.id, 'Noodles');
    expect(bodies((await threadPage(t, grace.token, chatId, root.id)).results)).toEqual(['Pizza', 'Noodles']);

    expectStatus(await editMessage(t, grace.token, chatId, first.id, 'Pizza, please'), 200);
    expect(bodies((await threadPage(t, ada.token, chatId, root.id)).results)).toEqual([
      'Pizza, please',
      'Noodles',
    ]);

    expectStatus(await react(t, grace.token, chatId, second.id, '👍'), 200);
    const reacted = (await threadPage(t, ada.token, chatId, root.id)).results[1];
    expect(reacted.reactions).toEqual([expect.objectContaining({ emoji: '👍', count: 1 })]);

    expectStatus(await deleteMessage(t, ada.token, chatId, second.id), 204);
    const page = (await threadPage(t, grace.token, chatId, root.id)).results;
    expect(page.find((m: Json) => m.id === second.id)).toMatchObject({ is_deleted: true, reactions: [] });
    for (const room of rooms) room.close();
  });

  it('no longer shows the messages of a person whose account is deleted', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const chatId = await createGroup(t, ada.token, 'Readers');
    await addMember(t, chatId, grace.user.id);
    await addMember(t, chatId, alan.user.id);
    const graceRoom = await joinRoom(t, grace.token, chatId);
    const alanRoom = await joinRoom(t, alan.token, chatId);
    await send(graceRoom, 'From Grace');
    await send(alanRoom, 'From Alan');
    expect(bodies(await history(t, ada.token, chatId))).toEqual(
      expect.arrayContaining(['From Grace', 'From Alan']),
    );
    graceRoom.close();
    expect((await t.deleteAccount(grace.token)).status).toBe(204);
    const after = bodies(await history(t, ada.token, chatId));
    expect(after).toContain('From Alan');
    expect(after).not.toContain('From Grace');
    alanRoom.close();
  });

  it('never shows a deleted group’s messages in a group made after it', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const gone = await createGroup(t, ada.token, 'Gone soon');
    const room = await joinRoom(t, ada.token, gone);
    await send(room, 'In the old group');
    room.close();
    expect(bodies(await history(t, ada.token, gone))).toContain('In the old group');
    expect((await deleteGroup(t, ada.token, gone)).status).toBe(204);

    const fresh = await createGroup(t, ada.token, 'Brand new');
    expect(bodies(await history(t, ada.token, fresh))).not.toContain('In the old group');
  });

  it.runIf(process.env.DATABASE_URL === undefined)(
    'shows what another connection to the database file wrote (an operator’s command, a second process)',
    async () => {
      const t = app();
      const { grace, chatId, adaRoom, rooms } = await pairInRoom(t);
      const sent = await send(adaRoom, 'As sent');
      expect(bodies(await history(t, grace.token, chatId))).toEqual(['As sent']);

      const other = new SQLite(path.join(t.dataDir, 'parley.db'));
      try {
        other.prepare('UPDATE messages SET body = ? WHERE id = ?').run('As written elsewhere', sent.id);
      } finally {
        other.close();
      }
      expect(bodies(await history(t, grace.token, chatId))).toEqual(['As written elsewhere']);
      for (const room of rooms) room.close();
    },
  );
});
