import { SAFETY_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import {
  adaAndGraceInRoom,
  addMember,
  createGroup,
  detail,
  history,
  myChats,
  newClientId,
  people,
  say,
  seedMessages,
  startChat,
} from '../chats/chat-helpers';
import type { SignedUp, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { joinRoom, openNotifications, type WsClient } from '../helpers/ws-client';
import { block, threeWithABlock } from './block-helpers';

// Blocking on one process: the calls as the person, as someone else and as an outsider; the refusals
// over HTTP and the room socket; presence, typing, read receipts and room occupancy hidden both ways.
const app = useTestApp();

const unblock = (t: TestApp, by: SignedUp, who: SignedUp) =>
  t.del(`/api/users/${who.user.username}/block/`, by.token);
const blockedList = async (t: TestApp, by: SignedUp) => {
  const res = await t.get('/api/users/blocked/', by.token);
  expect(res.status, res.text).toBe(200);
  return res.body.results as { id: number; username: string; name: string }[];
};

/** Sends a chat_message and waits for the error frame naming it. */
async function refused(room: WsClient, body: string): Promise<string> {
  const clientId = newClientId('refused');
  room.send({ type: 'chat_message', body, client_id: clientId });
  return (await room.next('error', (f) => f.client_id === clientId)).message;
}

describe('POST/DELETE /api/users/{username}/block/ and GET /api/users/blocked/', () => {
  it('blocks and unblocks for the person, lists only their own blocks, refuses outsiders', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');

    const res = await block(t, grace, ada);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ blocked: true, detail: SAFETY_TEXT.blocked });
    // Blocking twice changes nothing.
    expect((await block(t, grace, ada)).status).toBe(200);
    const list = await blockedList(t, grace);
    expect(list).toEqual([
      {
        id: ada.user.id,
        username: ada.user.username,
        name: 'Ada Tester',
        avatar: null,
        blocked_at: expect.any(String),
      },
    ]);
    // Someone else's list, and the blocked person's own, do not show it.
    expect(await blockedList(t, alan)).toEqual([]);
    expect(await blockedList(t, ada)).toEqual([]);

    // Outsiders: no token, a bad token.
    expect((await t.post(`/api/users/${ada.user.username}/block/`, {})).status).toBe(401);
    expect((await t.get('/api/users/blocked/')).status).toBe(401);
    expect((await t.del(`/api/users/${ada.user.username}/block/`, 'not-a-token')).status).toBe(401);

    // Nobody by that name; oneself.
    const unknown = await t.post('/api/users/no_such_person/block/', {}, grace.token);
    expect(unknown.status).toBe(404);
    // A NUL can name nobody (PostgreSQL refuses it in a parameter): 404, never a 500.
    expect((await t.del('/api/users/%00/block/', grace.token)).status).toBe(404);
    const self = await block(t, grace, grace);
    expect(self.status).toBe(400);
    expect(self.body.detail).toBe(SAFETY_TEXT.cannotBlockSelf);

    // Alan lifting a block he never made changes nobody else's.
    expect((await unblock(t, alan, ada)).status).toBe(200);
    expect(await blockedList(t, grace)).toHaveLength(1);

    const lifted = await unblock(t, grace, ada);
    expect(lifted.status).toBe(200);
    expect(lifted.body).toEqual({ blocked: false, detail: SAFETY_TEXT.unblocked });
    expect(await blockedList(t, grace)).toEqual([]);
  });
});

describe('a block refuses private messages', () => {
  it('refuses to start a private chat both ways, and allows it again after unblocking', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    await block(t, grace, ada);

    const byBlocked = await t.get(`/api/chats/start/${grace.user.username}/`, ada.token);
    expect(byBlocked.status).toBe(403);
    expect(byBlocked.body).toEqual({ detail: SAFETY_TEXT.cannotMessage });
    const byBlocker = await t.get(`/api/chats/start/${ada.user.username}/`, grace.token);
    expect(byBlocker.status).toBe(403);
    expect(byBlocker.body).toEqual({ detail: SAFETY_TEXT.unblockToMessage });
    expect(await myChats(t, ada.token)).toEqual([]);
    expect(await myChats(t, grace.token)).toEqual([]);

    await unblock(t, grace, ada);
    expect(await startChat(t, ada.token, grace.user.username)).toEqual(expect.any(String));
  });

  it('refuses messages into an existing private chat over the socket and HTTP, and stores none', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    await say(adaRoom, 'hello before');

    expect((await block(t, grace, ada)).status).toBe(200);
    expect(await refused(adaRoom, 'let me in')).toBe(SAFETY_TEXT.cannotMessage);
    expect(await refused(graceRoom, 'and you')).toBe(SAFETY_TEXT.unblockToMessage);
    // Both sockets stay open; the service refuses alike for any caller.
    expect(adaRoom.isOpen && graceRoom.isOpen).toBe(true);
    await expect(
      t.ctx.messages.send(ada.user.id, chatId, { body: 'through the service' }),
    ).rejects.toMatchObject({
      status: 403,
    });
    // The blocker may still open the chat they have; the blocked person may not start it again.
    expect((await t.get(`/api/chats/start/${ada.user.username}/`, grace.token)).body.chat_id).toBe(chatId);
    expect((await t.get(`/api/chats/start/${grace.user.username}/`, ada.token)).status).toBe(403);
    const bodies = (await t.get(`/api/chats/${chatId}/messages/`, grace.token)).body.map(
      (m: { body: string }) => m.body,
    );
    expect(bodies).toEqual(['hello before']);
    expect(graceRoom.received('chat_message').map((f) => f.message.body)).toEqual(['hello before']);

    await unblock(t, grace, ada);
    const after = await say(adaRoom, 'hello again');
    expect((await graceRoom.next('chat_message', (f) => f.message.id === after.id)).message.body).toBe(
      'hello again',
    );
    await Promise.all([adaRoom.close(), graceRoom.close()]);
  });

  it('keeps both in a shared group, where messages still flow', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const groupId = await createGroup(t, grace.token, 'Both');
    await addMember(t, groupId, ada.user.id);
    await block(t, grace, ada);
    const graceRoom = await joinRoom(t, grace.token, groupId);
    const adaRoom = await joinRoom(t, ada.token, groupId);
    const sent = await say(adaRoom, 'still here');
    expect((await graceRoom.next('chat_message', (f) => f.message.id === sent.id)).message.sender).toBe(
      ada.user.id,
    );
    expect((await detail(t, grace.token, groupId)).members.map((m: { id: number }) => m.id)).toContain(
      ada.user.id,
    );
    await Promise.all([adaRoom.close(), graceRoom.close()]);
  });

  it("tells the blocker nothing of the blocked person's group messages, mention or not", async () => {
    const t = app();
    const { ada, grace, alan, groupId } = await threeWithABlock(t);
    const graceNotes = (await openNotifications(t, grace.token)).client;
    const alanNotes = (await openNotifications(t, alan.token)).client;

    const sent = await t.ctx.messages.send(ada.user.id, groupId, {
      body: `@${grace.user.username} @${alan.user.username} hello`,
    });
    const toAlan = await alanNotes.next('new_message', (f) => f.message.message_id === sent.message.id);
    expect(toAlan.message).toMatchObject({ mention: true });
    expect(toAlan.message.muted).toBeUndefined();
    // Alan's next message reaches Grace; Ada's, published before it, never did (nor does her text).
    const after = await t.ctx.messages.send(alan.user.id, groupId, { body: 'and from me' });
    await graceNotes.next('new_message', (f) => f.message.message_id === after.message.id);
    expect(graceNotes.received('new_message', (f) => f.message.message_id === sent.message.id)).toEqual([]);
    expect(JSON.stringify(graceNotes.frames)).not.toContain('hello');
    await Promise.all([graceNotes.close(), alanNotes.close()]);
  });
});

describe('a block hides presence, typing and read receipts both ways', () => {
  it('shows each offline to the other, in chat lists, chat details and profiles, and to nobody else', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const groupId = await createGroup(t, alan.token, 'Three');
    await addMember(t, groupId, ada.user.id);
    await addMember(t, groupId, grace.user.id);
    const sockets = await Promise.all([ada, grace, alan].map((p) => openNotifications(t, p.token)));

    const onlineIn = async (viewer: SignedUp, chat: string, who: SignedUp) =>
      (await detail(t, viewer.token, chat)).members.find((m: { id: number }) => m.id === who.user.id);
    expect((await onlineIn(ada, chatId, grace)).is_online).toBe(true);

    await block(t, grace, ada);
    for (const [viewer, other] of [
      [ada, grace],
      [grace, ada],
    ] as const) {
      const listed = (await myChats(t, viewer.token)).find((c) => c.chat_id === chatId);
      expect(listed.is_online).toBe(false);
      expect(await onlineIn(viewer, chatId, other)).toMatchObject({ is_online: false, last_seen: null });
      expect(await onlineIn(viewer, groupId, other)).toMatchObject({ is_online: false, last_seen: null });
      const profile = await t.get(`/api/users/@${other.user.username}/`, viewer.token);
      expect(profile.body).toMatchObject({ is_online: false, last_seen: null });
    }
    // Alan still sees both online.
    expect((await onlineIn(alan, groupId, ada)).is_online).toBe(true);
    expect((await onlineIn(alan, groupId, grace)).is_online).toBe(true);

    await unblock(t, grace, ada);
    expect((await onlineIn(ada, chatId, grace)).is_online).toBe(true);
    await Promise.all(sockets.map((s) => s.client.close()));
  });

  it('does not pass typing, read receipts or room occupancy between them, and does to everyone else', async () => {
    const t = app();
    const { ada, grace, alan, groupId } = await threeWithABlock(t);

    const graceRoom = await joinRoom(t, grace.token, groupId);
    const adaRoom = await joinRoom(t, ada.token, groupId);
    const alanRoom = await joinRoom(t, alan.token, groupId);
    // Occupancy: Alan sees all three; Grace and Ada each see the room without the other.
    expect(alanRoom.received('in_chat_count').at(-1)?.count).toBe(3);
    const latest = (room: WsClient) => room.received('in_chat_users_update').at(-1)?.user_ids;
    await graceRoom.next('in_chat_users_update', (f) => f.user_ids.includes(alan.user.id));
    expect([...latest(graceRoom)].sort()).toEqual([grace.user.id, alan.user.id].sort());
    await adaRoom.next('in_chat_users_update', (f) => f.user_ids.includes(alan.user.id));
    expect([...latest(adaRoom)].sort()).toEqual([ada.user.id, alan.user.id].sort());
    expect(graceRoom.received('in_chat_count').at(-1)?.count).toBe(2);
    expect(graceRoom.received('in_chat_users_update').some((f) => f.user_ids.includes(ada.user.id))).toBe(
      false,
    );

    // Typing: Ada's reaches Alan, not Grace; Alan's (published after it) reaches both.
    adaRoom.send({ type: 'typing', is_typing: true });
    await alanRoom.next('typing', (f) => f.user_id === ada.user.id);
    alanRoom.send({ type: 'typing', is_typing: true });
    await graceRoom.next('typing', (f) => f.user_id === alan.user.id);
    await adaRoom.next('typing', (f) => f.user_id === alan.user.id);
    graceRoom.send({ type: 'typing', is_typing: true });
    await alanRoom.next('typing', (f) => f.user_id === grace.user.id);
    alanRoom.send({ type: 'typing', is_typing: false });
    await adaRoom.next('typing', (f) => f.user_id === alan.user.id && !f.is_typing);
    expect(graceRoom.received('typing', (f) => f.user_id === ada.user.id)).toEqual([]);
    expect(adaRoom.received('typing', (f) => f.user_id === grace.user.id)).toEqual([]);

    // Read receipts: Grace's message becomes read when Ada, the last of the others, reads it. Alan is told;
    // Grace is not (Alan's typing, published after it, reaches her first).
    const hers = await say(graceRoom, 'read me');
    alanRoom.send({ type: 'read_messages', message_ids: [hers.id] });
    await graceRoom.next('messages_delivered', (f) => f.message_ids.includes(hers.id));
    adaRoom.send({ type: 'read_messages', message_ids: [hers.id] });
    await alanRoom.next('messages_read', (f) => f.user_id === ada.user.id && f.message_ids.includes(hers.id));
    alanRoom.send({ type: 'typing', is_typing: true });
    await graceRoom.next('typing', (f) => f.user_id === alan.user.id && f.is_typing);
    expect(graceRoom.received('messages_read')).toEqual([]);

    await Promise.all([adaRoom.close(), graceRoom.close(), alanRoom.close()]);
  });

  it("leaves the other's reads out of the history's ticks while the block stands", async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const [hi] = await seedMessages(t, grace.user.id, chatId, ['hi']);
    await block(t, grace, ada);
    await t.ctx.messages.markRead(ada.user.id, chatId, [hi as number]);
    await t.ctx.messages.receiptsSettled();
    const ticksOf = async () => (await history(t, grace.token, chatId)).find((m) => m.id === hi);
    expect(await ticksOf()).toMatchObject({ is_read: false, is_delivered: true });
    await unblock(t, grace, ada);
    expect(await ticksOf()).toMatchObject({ is_read: true });
  });

  it('re-announces a private room at once when one blocks the other in it', async () => {
    const t = app();
    const { ada, grace, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    await adaRoom.next('in_chat_count', (f) => f.count === 2);
    await block(t, grace, ada);
    expect((await adaRoom.next('in_chat_users_update', (f) => f.user_ids.length === 1)).user_ids).toEqual([
      ada.user.id,
    ]);
    expect((await graceRoom.next('in_chat_count', (f) => f.count === 1)).count).toBe(1);
    await Promise.all([adaRoom.close(), graceRoom.close()]);
  });
});
