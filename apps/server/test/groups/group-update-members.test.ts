import { pngOf } from '@parley/fixtures';
import { describe, expect, it } from 'vitest';
import { fetchPath } from '../attachments/attachment-helpers';
import { createGroup, detail, fullName, history, myChats, people, startChat } from '../chats/chat-helpers';
import { useTestApp } from '../helpers/test-app';
import { joinRoom, openNotifications, type WsClient } from '../helpers/ws-client';
import {
  addMembers,
  avatarName,
  bigPng,
  chatRow,
  groupOf,
  mediaFiles,
  memberRows,
  patchGroup,
  patchGroupForm,
  systemLines,
} from './group-helpers';

// Group management, part one (DESIGN §1, §6, §7): PATCH /api/chats/{id}/ (name,
// description, avatar ≤ 2 MB) and POST /api/chats/{id}/members/, each as admin, as member and as outsider,
// with the system lines and the chat_updated frames the open clients apply.
const app = useTestApp();

const closeAll = (...clients: WsClient[]) => Promise.all(clients.map((c) => c.close()));

describe('PATCH /api/chats/{chat_id}/', () => {
  it('lets the admin rename and describe the group: system line in history and live, chat_updated to the room', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Bletchley', 'Ada', 'Grace');
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const graceRoom = await joinRoom(t, grace.token, chatId);

    const res = await patchGroup(t, ada.token, chatId, {
      group_name: '  Hut 8  ',
      description: 'Codebreakers',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ chat_id: chatId, group_name: 'Hut 8', description: 'Codebreakers' });

    const line = `${fullName(ada)} renamed the group to Hut 8`;
    for (const room of [adaRoom, graceRoom]) {
      const sys = await room.next('chat_message', (f) => f.message.kind === 'system');
      expect(sys.message).toMatchObject({ kind: 'system', body: line, sender: null, chatroom: chatId });
      const upd = await room.next('chat_updated');
      expect(upd.chat).toMatchObject({ chat_id: chatId, group_name: 'Hut 8', description: 'Codebreakers' });
      expect(upd.chat.members.map((m: { id: number }) => m.id)).toEqual([ada.user.id, grace.user.id]);
    }
    expect(systemLines(await history(t, grace.token, chatId))).toContain(line);
    expect((await detail(t, grace.token, chatId)).group_name).toBe('Hut 8');
    expect((await myChats(t, grace.token)).find((c) => c.chat_id === chatId)?.display_name).toBe('Hut 8');

    // The same name again (only the description changes): no new system line, still a chat_updated.
    const same = await patchGroup(t, ada.token, chatId, { group_name: 'Hut 8', description: '' });
    expect(same.status, same.text).toBe(200);
    expect((await graceRoom.next('chat_updated')).chat.description).toBe('');
    expect(systemLines(await history(t, ada.token, chatId))).toEqual([
      `${fullName(ada)} added ${fullName(grace)}`,
      line,
    ]);
    await closeAll(adaRoom, graceRoom);
  });

  it('stores a real PNG as the group picture (re-encoded), replaces the old file, and broadcasts the avatar', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Pictures', 'Ada', 'Grace');
    const graceRoom = await joinRoom(t, grace.token, chatId);

    const first = await patchGroupForm(
      t,
      ada.token,
      chatId,
      { group_name: 'Pictures', description: 'with a face' },
      { bytes: pngOf(300, 200), filename: 'face.png', type: 'image/png' },
    );
    expect(first.status, first.text).toBe(200);
    expect(first.body.description).toBe('with a face');
    const firstName = avatarName(first.body.avatar);
    expect(first.body.chat_avatar).toBe(first.body.avatar);
    expect(await mediaFiles(t, 'avatars')).toEqual([firstName]);
    const upd = await graceRoom.next('chat_updated');
    expect(upd.chat.avatar).toBe(first.body.avatar);

    // Served as a WebP, square, from the media route.
    const served = await fetchPath(t, first.body.avatar);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    const listed = (await myChats(t, grace.token)).find((c) => c.chat_id === chatId);
    expect(listed?.avatar).toBe(first.body.avatar);

    // A second picture replaces the first on disk too.
    const second = await patchGroupForm(
      t,
      ada.token,
      chatId,
      { group_name: 'Pictures' },
      { bytes: pngOf(50, 50, '#00ff00'), filename: 'other.png', type: 'image/png' },
    );
    expect(second.status, second.text).toBe(200);
    expect(second.body.description).toBe('with a face');
    expect(await mediaFiles(t, 'avatars')).toEqual([avatarName(second.body.avatar)]);
    expect((await graceRoom.next('chat_updated')).chat.avatar).toBe(second.body.avatar);
    // Only the picture changed: no system line.
    expect(systemLines(await history(t, grace.token, chatId))).toEqual([
      `${fullName(ada)} added ${fullName(grace)}`,
    ]);
    await graceRoom.close();
  });

  it('refuses a picture over 2 MB with 413 and anything but an image with 415, changing nothing', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Small', 'Ada', 'Grace');
    const big = await bigPng(2 * 1024 * 1024 + 1024);
    const tooLarge = await patchGroupForm(
      t,
      ada.token,
      chatId,
      { group_name: 'Renamed by a big picture' },
      { bytes: big, filename: 'big.png', type: 'image/png' },
    );
    expect(tooLarge.status, tooLarge.text.slice(0, 200)).toBe(413);
    expect(tooLarge.body.detail).toMatch(/2\s?MB/);

    // Past the 10 MB cap of profile pictures too: still the group's own 2 MB message.
    const huge = await patchGroupForm(
      t,
      ada.token,
      chatId,
      { group_name: 'Renamed by a huge picture' },
      { bytes: Buffer.concat([big, Buffer.alloc(9 * 1024 * 1024)]), filename: 'huge.png', type: 'image/png' },
    );
    expect(huge.status).toBe(413);
    expect(huge.body.detail).toMatch(/2\s?MB/);

    const notImage = await patchGroupForm(
      t,
      ada.token,
      chatId,
      { group_name: 'Renamed by a script' },
      {
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        filename: 'x.png',
      },
    );
    expect(notImage.status, notImage.text).toBe(415);

    expect(await chatRow(t, chatId)).toMatchObject({ name: 'Small', avatar: null });
    expect(await mediaFiles(t, 'avatars')).toEqual([]);
  });

  it('answers a member 403 and an outsider 404, and nothing changes; the name is required', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, mallory],
    } = await groupOf(t, 'Guarded', 'Ada', 'Grace', 'Mallory');
    const [eve] = await people(t, 'Eve');
    // Mallory is a member too; Eve is not.
    const before = await chatRow(t, chatId);

    const byMember = await patchGroupForm(
      t,
      grace.token,
      chatId,
      { group_name: 'Taken over', description: 'by Grace' },
      { bytes: pngOf(64, 48), filename: 'p.png', type: 'image/png' },
    );
    expect(byMember.status, byMember.text).toBe(403);
    const byMemberJson = await patchGroup(t, mallory.token, chatId, { group_name: 'Taken over' });
    expect(byMemberJson.status).toBe(403);

    const byOutsider = await patchGroup(t, eve.token, chatId, { group_name: 'Taken over' });
    expect(byOutsider.status).toBe(404);
    expect(byOutsider.body).toEqual({ detail: expect.any(String) });
    expect(byOutsider.text).not.toContain('Guarded');
    const unknown = await patchGroup(t, ada.token, 'no-such-chat', { group_name: 'x' });
    expect(unknown.status).toBe(404);

    const noToken = await t.request('PATCH', `/api/chats/${chatId}/`, { json: { group_name: 'x' } });
    expect(noToken.status).toBe(401);

    const blank = await patchGroup(t, ada.token, chatId, { group_name: '   ', description: 'no name' });
    expect(blank.status).toBe(400);
    expect(blank.body.group_name).toEqual([expect.any(String)]);

    expect(await chatRow(t, chatId)).toEqual(before);
    expect(await mediaFiles(t, 'avatars')).toEqual([]);
    expect(systemLines(await history(t, ada.token, chatId)).some((l) => l.includes('renamed'))).toBe(false);
  });

  it('is not for private chats (400), and a non-partner gets 404', async () => {
    const t = app();
    const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
    const chatId = await startChat(t, ada.token, grace.user.username);
    expect((await patchGroup(t, ada.token, chatId, { group_name: 'Ours' })).status).toBe(400);
    expect((await patchGroup(t, eve.token, chatId, { group_name: 'Ours' })).status).toBe(404);
    expect((await addMembers(t, ada.token, chatId, { username: eve.user.username })).status).toBe(400);
    expect((await chatRow(t, chatId))?.name).toBe('');
    expect((await memberRows(t, chatId)).length).toBe(2);
  });
});

describe('POST /api/chats/{chat_id}/members/', () => {
  it('adds people by username and by id: system lines, chat_updated with members, chats_changed to the added', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const chatId = await createGroup(t, ada.token, 'Growing');
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const graceBell = await openNotifications(t, grace.token);
    const alanBell = await openNotifications(t, alan.token);

    const res = await addMembers(t, ada.token, chatId, {
      members: [grace.user.username.toUpperCase(), alan.user.id],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.chat_id).toBe(chatId);
    // Both added at once, in no particular order between them.
    const ids = (members: { id: number }[]) => members.map((m) => m.id);
    const everyone = [ada.user.id, grace.user.id, alan.user.id].sort((a, b) => a - b);
    expect(ids(res.body.members).sort((a, b) => a - b)).toEqual(everyone);
    expect(res.body.members[0]).toMatchObject({ id: ada.user.id, role: 'owner' });
    expect(res.body.members.filter((m: { role: string }) => m.role === 'member')).toHaveLength(2);

    const lines = [`${fullName(ada)} added ${fullName(grace)}`, `${fullName(ada)} added ${fullName(alan)}`];
    const live = await adaRoom.take('chat_message', 2);
    expect(live.map((f) => [f.message.kind, f.message.body].join(': ')).sort()).toEqual(
      lines.map((l) => `system: ${l}`).sort(),
    );
    const upd = await adaRoom.next('chat_updated');
    expect(ids(upd.chat.members).sort((a, b) => a - b)).toEqual(everyone);
    expect(upd.chat.admin).toMatchObject({ id: ada.user.id });

    await graceBell.client.next('chats_changed');
    await alanBell.client.next('chats_changed');
    expect((await myChats(t, grace.token)).map((c) => c.chat_id)).toEqual([chatId]);
    expect(systemLines(await history(t, alan.token, chatId)).sort()).toEqual([...lines].sort());
    // The new member is in: a room socket stays open.
    const graceRoom = await joinRoom(t, grace.token, chatId);
    await closeAll(adaRoom, graceRoom, graceBell.client, alanBell.client);
  });

  it('takes {username} or {user_id} alone; adding a member again is a no-op', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const chatId = await createGroup(t, ada.token, 'Once');

    expect((await addMembers(t, ada.token, chatId, { username: grace.user.username })).status).toBe(200);
    expect((await addMembers(t, ada.token, chatId, { user_id: alan.user.id })).status).toBe(200);
    const linesBefore = systemLines(await history(t, ada.token, chatId));
    expect(linesBefore).toHaveLength(2);

    const again = await addMembers(t, ada.token, chatId, { members: [grace.user.id, alan.user.username] });
    expect(again.status, again.text).toBe(200);
    expect(again.body.members).toHaveLength(3);
    // Ada herself too.
    expect((await addMembers(t, ada.token, chatId, { user_id: ada.user.id })).status).toBe(200);
    expect(await memberRows(t, chatId)).toEqual([
      { user_id: ada.user.id, role: 'owner' },
      { user_id: grace.user.id, role: 'member' },
      { user_id: alan.user.id, role: 'member' },
    ]);
    expect(systemLines(await history(t, ada.token, chatId))).toEqual(linesBefore);
  });

  it('answers 404 for an unknown person, 403 to a member, 404 to an outsider, 400 to an empty body', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Closed', 'Ada', 'Grace');
    const [eve, carol] = await people(t, 'Eve', 'Carol');

    const unknown = await addMembers(t, ada.token, chatId, { username: 'nobody_by_this_name' });
    expect(unknown.status).toBe(404);
    expect((await addMembers(t, ada.token, chatId, { user_id: 987654 })).status).toBe(404);
    // An id no row can have is refused as invalid input.
    expect((await addMembers(t, ada.token, chatId, { members: [99999999999] })).status).toBe(400);

    const byMember = await addMembers(t, grace.token, chatId, { username: carol.user.username });
    expect(byMember.status).toBe(403);
    expect(byMember.body.detail).toEqual(expect.any(String));

    const byOutsider = await addMembers(t, eve.token, chatId, { user_id: eve.user.id });
    expect(byOutsider.status).toBe(404);

    expect((await addMembers(t, ada.token, chatId, {})).status).toBe(400);
    expect((await addMembers(t, ada.token, chatId, { members: [] })).status).toBe(400);
    expect((await t.post(`/api/chats/${chatId}/members/`, { username: carol.user.username })).status).toBe(
      401,
    );

    expect((await memberRows(t, chatId)).map((m) => m.user_id)).toEqual([ada.user.id, grace.user.id]);
    expect((await myChats(t, carol.token)).length).toBe(0);
    expect((await myChats(t, eve.token)).length).toBe(0);
    expect(systemLines(await history(t, ada.token, chatId))).toEqual([
      `${fullName(ada)} added ${fullName(grace)}`,
    ]);
  });
});
