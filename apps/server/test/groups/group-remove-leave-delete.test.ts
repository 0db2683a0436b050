import { pdfOf, pngOf } from '@parley/fixtures';
import { describe, expect, it } from 'vitest';
import { fetchPath, uploadFiles } from '../attachments/attachment-helpers';
import {
  detail,
  fullName,
  history,
  myChats,
  nextMillisecond,
  people,
  say,
  seedMessages,
  startChat,
} from '../chats/chat-helpers';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { connectWs, joinRoom, openNotifications, roomPath, type WsClient } from '../helpers/ws-client';
import {
  addMembers,
  chatRow,
  clearChat,
  deleteGroup,
  groupOf,
  leaveGroup,
  mediaFiles,
  memberRows,
  messageCount,
  patchGroupForm,
  removeMemberCall,
  systemLines,
} from './group-helpers';

// Group management, part two (DESIGN §1, §6, §7): removing a member, leaving,
// deleting a group and clearing a conversation for oneself, each as admin, member and outsider; the sockets
// a change closes (4004), the chats_changed notice, and what is left in the database and in DATA_DIR.
const app = useTestApp();

const closeAll = (...clients: WsClient[]) => Promise.all(clients.map((c) => c.close()));
const CLOSE_NOT_FOUND = 4004;

/** A fresh room socket for someone who is no longer a member: the server closes it with 4004. */
async function refusedRoom(t: TestApp, token: string, chatId: string) {
  const socket = await connectWs(t, roomPath(chatId), token);
  return (await socket.closed()).code;
}

/** Everything a former member or an outsider can ask about a chat answers 404. */
async function expectLockedOut(t: TestApp, token: string, chatId: string) {
  expect((await t.get(`/api/chats/${chatId}/`, token)).status).toBe(404);
  expect((await t.get(`/api/chats/${chatId}/messages/`, token)).status).toBe(404);
  expect((await myChats(t, token)).map((c) => c.chat_id)).not.toContain(chatId);
  expect(await refusedRoom(t, token, chatId)).toBe(CLOSE_NOT_FOUND);
}

describe('DELETE /api/chats/{chat_id}/members/{user_id}/', () => {
  it('removes a member: their room socket closes 4004, their list changes, the room sees the line and the new members', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan],
    } = await groupOf(t, 'Bletchley', 'Ada', 'Grace', 'Alan');
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const alanRoom = await joinRoom(t, alan.token, chatId);
    const graceRoom = await joinRoom(t, grace.token, chatId);
    const graceBell = await openNotifications(t, grace.token);

    const res = await removeMemberCall(t, ada.token, chatId, grace.user.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.members.map((m: { id: number }) => m.id)).toEqual([ada.user.id, alan.user.id]);

    expect((await graceRoom.closed()).code).toBe(CLOSE_NOT_FOUND);
    await graceBell.client.next('chats_changed');
    expect(graceBell.client.isOpen).toBe(true);

    const line = `${fullName(ada)} removed ${fullName(grace)}`;
    for (const room of [adaRoom, alanRoom]) {
      const sys = await room.next('chat_message', (f) => f.message.body === line);
      expect(sys.message).toMatchObject({ kind: 'system', sender: null });
      const upd = await room.next('chat_updated');
      expect(upd.chat.members.map((m: { id: number }) => m.id)).toEqual([ada.user.id, alan.user.id]);
      expect(room.isOpen).toBe(true);
    }
    // The removed member's socket was closed before the line went out.
    expect(graceRoom.received('chat_message', (f) => f.message.body === line)).toEqual([]);
    expect(systemLines(await history(t, alan.token, chatId))).toContain(line);

    await expectLockedOut(t, grace.token, chatId);
    expect((await uploadFiles(t, grace.token, chatId, [{ bytes: pdfOf(), filename: 'a.pdf' }])).status).toBe(
      404,
    );
    expect(await memberRows(t, chatId)).toEqual([
      { user_id: ada.user.id, role: 'owner' },
      { user_id: alan.user.id, role: 'member' },
    ]);

    // Invited back, Grace is a member again.
    expect((await addMembers(t, ada.token, chatId, { user_id: grace.user.id })).status).toBe(200);
    await graceBell.client.next('chats_changed');
    expect((await detail(t, grace.token, chatId)).chat_id).toBe(chatId);
    await closeAll(adaRoom, alanRoom, graceBell.client);
  });

  it('never removes the admin; a member gets 403, an outsider 404, and nothing changes', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan],
    } = await groupOf(t, 'Steady', 'Ada', 'Grace', 'Alan');
    const [eve] = await people(t, 'Eve');
    const graceRoom = await joinRoom(t, grace.token, chatId);

    const self = await removeMemberCall(t, ada.token, chatId, ada.user.id);
    expect(self.status).toBe(400);
    expect(self.body.detail).toEqual(expect.any(String));
    expect((await removeMemberCall(t, grace.token, chatId, ada.user.id)).status).toBe(403);
    expect((await removeMemberCall(t, grace.token, chatId, alan.user.id)).status).toBe(403);
    expect((await removeMemberCall(t, grace.token, chatId, grace.user.id)).status).toBe(403);
    expect((await removeMemberCall(t, eve.token, chatId, alan.user.id)).status).toBe(404);
    // Not a member, no such person, not a number.
    expect((await removeMemberCall(t, ada.token, chatId, eve.user.id)).status).toBe(404);
    expect((await removeMemberCall(t, ada.token, chatId, 987654)).status).toBe(404);
    expect((await removeMemberCall(t, ada.token, chatId, 'abc')).status).toBe(404);
    expect((await removeMemberCall(t, ada.token, chatId, '99999999999')).status).toBe(404);
    expect((await removeMemberCall(t, ada.token, chatId, '-1')).status).toBe(404);
    expect((await t.del(`/api/chats/${chatId}/members/${alan.user.id}/`)).status).toBe(401);

    expect((await memberRows(t, chatId)).map((m) => m.user_id)).toEqual([
      ada.user.id,
      grace.user.id,
      alan.user.id,
    ]);
    expect(systemLines(await history(t, ada.token, chatId)).some((l) => l.includes('removed'))).toBe(false);
    // Grace's room socket is still open and usable.
    expect(graceRoom.isOpen).toBe(true);
    expect((await say(graceRoom, 'still here')).body).toBe('still here');
    await graceRoom.close();
  });
});

describe('POST /api/chats/{chat_id}/leave/', () => {
  it("lets a member leave: 204, the room sees 'Grace left', her sockets for the room close, the chat leaves her list", async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Door', 'Ada', 'Grace');
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const graceRoom = await joinRoom(t, grace.token, chatId);
    const graceBell = await openNotifications(t, grace.token);

    const res = await leaveGroup(t, grace.token, chatId);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect((await graceRoom.closed()).code).toBe(CLOSE_NOT_FOUND);
    await graceBell.client.next('chats_changed');

    const line = `${fullName(grace)} left`;
    const sys = await adaRoom.next('chat_message', (f) => f.message.kind === 'system');
    expect(sys.message).toMatchObject({ kind: 'system', body: line, sender: null });
    const upd = await adaRoom.next('chat_updated');
    expect(upd.chat.members.map((m: { id: number }) => m.id)).toEqual([ada.user.id]);
    expect(upd.chat.admin).toMatchObject({ id: ada.user.id });

    await expectLockedOut(t, grace.token, chatId);
    expect(systemLines(await history(t, ada.token, chatId))).toEqual([
      `${fullName(ada)} added ${fullName(grace)}`,
      line,
    ]);
    // Leaving twice: no longer a member.
    expect((await leaveGroup(t, grace.token, chatId)).status).toBe(404);
    await closeAll(adaRoom, graceBell.client);
  });

  it('hands the group to the longest-standing member when the admin leaves', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan, carol],
    } = await groupOf(t, 'Heirs', 'Ada', 'Grace', 'Alan', 'Carol');
    // Grace leaves and is invited back: she is now the newest member; Alan is the longest-standing one.
    expect((await leaveGroup(t, grace.token, chatId)).status).toBe(204);
    await nextMillisecond();
    expect((await addMembers(t, ada.token, chatId, { user_id: grace.user.id })).status).toBe(200);
    const carolRoom = await joinRoom(t, carol.token, chatId);

    expect((await leaveGroup(t, ada.token, chatId)).status).toBe(204);
    const upd = await carolRoom.next('chat_updated');
    expect(upd.chat.admin).toMatchObject({ id: alan.user.id });
    expect(await memberRows(t, chatId)).toEqual([
      { user_id: alan.user.id, role: 'owner' },
      { user_id: carol.user.id, role: 'member' },
      { user_id: grace.user.id, role: 'member' },
    ]);
    expect((await detail(t, grace.token, chatId)).admin).toMatchObject({ id: alan.user.id });
    expect((await myChats(t, alan.token)).find((c) => c.chat_id === chatId)?.is_admin).toBe(true);

    // The new admin manages; the others still may not.
    expect((await patchGroupForm(t, carol.token, chatId, { group_name: 'Carol rules' })).status).toBe(403);
    const renamed = await patchGroupForm(t, alan.token, chatId, { group_name: 'Alan rules' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.group_name).toBe('Alan rules');
    expect((await removeMemberCall(t, alan.token, chatId, grace.user.id)).status).toBe(200);
    await carolRoom.close();
  });

  it('deletes the group, its messages, picture and files when the last member leaves', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Solo', 'Ada');
    const pic = await patchGroupForm(
      t,
      ada.token,
      chatId,
      { group_name: 'Solo' },
      { bytes: pngOf(64, 48), filename: 'p.png', type: 'image/png' },
    );
    expect(pic.status, pic.text).toBe(200);
    const up = await uploadFiles(t, ada.token, chatId, [{ bytes: pngOf(64, 48), filename: 'shot.png' }]);
    expect(up.status, up.text).toBe(200);
    await t.ctx.messages.send(ada.user.id, chatId, { body: 'note to self', file_ids: [up.body.files[0].id] });
    const dbId = (await chatRow(t, chatId))?.id as number;
    expect(await messageCount(t, dbId)).toBe(1);
    expect(await mediaFiles(t, 'avatars')).toHaveLength(1);
    expect(await mediaFiles(t, 'files')).toHaveLength(2); // the image and its thumbnail
    const adaRoom = await joinRoom(t, ada.token, chatId);

    expect((await leaveGroup(t, ada.token, chatId)).status).toBe(204);
    expect((await adaRoom.closed()).code).toBe(CLOSE_NOT_FOUND);
    expect(await chatRow(t, chatId)).toBeUndefined();
    expect(await messageCount(t, dbId)).toBe(0);
    expect(await t.ctx.db.selectFrom('files').selectAll().execute()).toEqual([]);
    expect(await mediaFiles(t, 'avatars')).toEqual([]);
    expect(await mediaFiles(t, 'files')).toEqual([]);
    expect((await fetchPath(t, up.body.files[0].file)).status).toBe(404);
    await expectLockedOut(t, ada.token, chatId);
  });

  it('answers an outsider 404 and a private chat 400', async () => {
    const t = app();
    const { chatId } = await groupOf(t, 'Members only', 'Ada', 'Grace');
    const [eve, bob] = await people(t, 'Eve', 'Bob');
    expect((await leaveGroup(t, eve.token, chatId)).status).toBe(404);
    expect((await t.post(`/api/chats/${chatId}/leave/`, {})).status).toBe(401);
    const privateId = await startChat(t, eve.token, bob.user.username);
    expect((await leaveGroup(t, eve.token, privateId)).status).toBe(400);
    expect((await memberRows(t, chatId)).length).toBe(2);
    expect((await memberRows(t, privateId)).length).toBe(2);
  });
});

describe('DELETE /api/chats/{chat_id}/', () => {
  it('is for the admin only: a member gets 403, an outsider 404, and nothing changes', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Keep', 'Ada', 'Grace');
    const [eve] = await people(t, 'Eve');
    const graceRoom = await joinRoom(t, grace.token, chatId);
    expect((await deleteGroup(t, grace.token, chatId)).status).toBe(403);
    expect((await deleteGroup(t, eve.token, chatId)).status).toBe(404);
    expect((await t.del(`/api/chats/${chatId}/`)).status).toBe(401);
    expect(await chatRow(t, chatId)).toMatchObject({ name: 'Keep' });
    expect((await memberRows(t, chatId)).length).toBe(2);
    expect((await history(t, ada.token, chatId)).length).toBe(1);
    expect(graceRoom.isOpen).toBe(true);
    await graceRoom.close();
  });

  it("deletes the group with its messages, picture and files; every member's room socket closes 4004", async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan],
    } = await groupOf(t, 'Doomed', 'Ada', 'Grace', 'Alan');
    const pic = await patchGroupForm(
      t,
      ada.token,
      chatId,
      { group_name: 'Doomed' },
      { bytes: pngOf(64, 48), filename: 'p.png', type: 'image/png' },
    );
    expect(pic.status, pic.text).toBe(200);
    const up = await uploadFiles(t, grace.token, chatId, [{ bytes: pdfOf(), filename: 'plan.pdf' }]);
    expect(up.status, up.text).toBe(200);
    await t.ctx.messages.send(grace.user.id, chatId, { body: 'the plan', file_ids: [up.body.files[0].id] });
    await seedMessages(t, alan.user.id, chatId, ['one', 'two']);
    const dbId = (await chatRow(t, chatId))?.id as number;
    expect(await messageCount(t, dbId)).toBeGreaterThanOrEqual(5);
    expect(await mediaFiles(t, 'files')).toHaveLength(1);
    expect((await fetchPath(t, up.body.files[0].file)).status).toBe(200);

    const rooms = [
      await joinRoom(t, ada.token, chatId),
      await joinRoom(t, grace.token, chatId),
      await joinRoom(t, alan.token, chatId),
    ];
    const graceBell = await openNotifications(t, grace.token);
    const alanBell = await openNotifications(t, alan.token);

    const res = await deleteGroup(t, ada.token, chatId);
    expect(res.status, res.text).toBe(204);
    for (const room of rooms) expect((await room.closed()).code).toBe(CLOSE_NOT_FOUND);
    await graceBell.client.next('chats_changed');
    await alanBell.client.next('chats_changed');

    expect(await chatRow(t, chatId)).toBeUndefined();
    expect(await messageCount(t, dbId)).toBe(0);
    expect(
      await t.ctx.db.selectFrom('chat_members').selectAll().where('chat_id', '=', dbId).execute(),
    ).toEqual([]);
    expect(await t.ctx.db.selectFrom('files').selectAll().execute()).toEqual([]);
    expect(await mediaFiles(t, 'avatars')).toEqual([]);
    expect(await mediaFiles(t, 'files')).toEqual([]);
    expect((await fetchPath(t, up.body.files[0].file)).status).toBe(404);
    for (const p of [ada, grace, alan]) await expectLockedOut(t, p.token, chatId);
    expect((await deleteGroup(t, ada.token, chatId)).status).toBe(404);
    await closeAll(graceBell.client, alanBell.client);
  });
});

describe('POST /api/chats/{chat_id}/clear/', () => {
  it('hides the history so far for the one who cleared only; later messages show', async () => {
    const t = app();
    const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
    const chatId = await startChat(t, ada.token, grace.user.username);
    await seedMessages(t, ada.user.id, chatId, ['first', 'second']);
    const graceBell = await openNotifications(t, grace.token);
    expect(graceBell.count).toBe(2);

    const res = await clearChat(t, grace.token, chatId);
    expect(res.status, res.text).toBe(204);
    // Cleared messages are no longer unread for her.
    // Counts from the seeding may still be on their way; wait for the one that says zero.
    expect((await graceBell.client.next('notification_count', (f) => f.count === 0)).count).toBe(0);
    expect(await history(t, grace.token, chatId)).toEqual([]);
    expect((await history(t, ada.token, chatId)).map((m) => m.body)).toEqual(['first', 'second']);
    const graceItem = (await myChats(t, grace.token)).find((c) => c.chat_id === chatId);
    expect(graceItem).toMatchObject({ last_message: null, unread_count: 0 });
    expect((await myChats(t, ada.token)).find((c) => c.chat_id === chatId)?.last_message).toBe('second');

    const adaRoom = await joinRoom(t, ada.token, chatId);
    await say(adaRoom, 'third');
    expect((await history(t, grace.token, chatId)).map((m) => m.body)).toEqual(['third']);
    expect((await history(t, ada.token, chatId)).map((m) => m.body)).toEqual(['first', 'second', 'third']);

    expect((await clearChat(t, eve.token, chatId)).status).toBe(404);
    expect((await t.post(`/api/chats/${chatId}/clear/`, {})).status).toBe(401);
    await closeAll(adaRoom, graceBell.client);
  });

  it('works in a group for the member who clears, the others keep everything', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Chatty', 'Ada', 'Grace');
    await seedMessages(t, ada.user.id, chatId, ['hello all']);
    expect((await clearChat(t, grace.token, chatId)).status).toBe(204);
    expect(await history(t, grace.token, chatId)).toEqual([]);
    expect((await history(t, ada.token, chatId)).map((m) => m.body)).toEqual([
      `${fullName(ada)} added ${fullName(grace)}`,
      'hello all',
    ]);
  });
});
