import { CHANNEL_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { myChats, people, say } from '../chats/chat-helpers';
import type { TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { joinRoom, openNotifications } from '../helpers/ws-client';
import { groupOf, leaveGroup, memberRows, messageCount, patchGroup, removeMemberCall } from './group-helpers';

// Members' roles: the creator owns the group, the owner and admins promote and demote (never the owner), only
// the owner transfers ownership (staying an admin), an owner who leaves is followed by the longest-standing
// admin (else member), and an announcement channel takes posts from the owner and admins alone. Each change
// reaches the room as chat_updated.
const app = useTestApp();

const setRole = (t: TestApp, token: string, chatId: string, userId: number | string, role: unknown) =>
  t.request('PATCH', `/api/chats/${chatId}/members/${userId}/`, { token, json: { role } });

const transfer = (t: TestApp, token: string, chatId: string, userId: unknown) =>
  t.post(`/api/chats/${chatId}/transfer/`, { user_id: userId }, token);

const roleOf = (rows: { user_id: number | null; role: string }[], id: number) =>
  rows.find((r) => r.user_id === id)?.role;

describe('roles', () => {
  it('makes the creator the owner, shown as the group admin and with the Admin badge in the list', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Owners', 'Ada', 'Grace');
    expect(await memberRows(t, chatId)).toMatchObject([{ role: 'owner' }, { role: 'member' }]);
    const res = await t.get(`/api/chats/${chatId}/`, ada.token);
    expect(res.body.admin).toMatchObject({ id: ada.user.id });
    expect(res.body.members[0]).toMatchObject({ id: ada.user.id, role: 'owner' });
    expect((await myChats(t, ada.token)).find((c) => c.chat_id === chatId)?.is_admin).toBe(true);
  });

  it('lets the owner promote a member to admin, live to the room; the new admin manages the group', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan],
    } = await groupOf(t, 'Promotions', 'Ada', 'Grace', 'Alan');
    const alanRoom = await joinRoom(t, alan.token, chatId);

    const res = await setRole(t, ada.token, chatId, grace.user.id, 'admin');
    expect(res.status, res.text).toBe(200);
    expect(res.body.members.find((m: { id: number }) => m.id === grace.user.id).role).toBe('admin');
    const upd = await alanRoom.next('chat_updated', (f) =>
      f.chat.members.some((m: { id: number; role: string }) => m.id === grace.user.id && m.role === 'admin'),
    );
    expect(upd.chat.chat_id).toBe(chatId);
    expect((await myChats(t, grace.token)).find((c) => c.chat_id === chatId)?.is_admin).toBe(true);

    // Today's admin rules hold for every admin: Grace renames the group and removes Alan.
    expect((await patchGroup(t, grace.token, chatId, { group_name: 'Promoted' })).status).toBe(200);
    expect((await removeMemberCall(t, grace.token, chatId, alan.user.id)).status).toBe(200);
    expect(roleOf(await memberRows(t, chatId), alan.user.id)).toBeUndefined();
    await alanRoom.close();
  });

  it('lets an admin promote and demote members, but nobody demotes the owner', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan],
    } = await groupOf(t, 'Ranks', 'Ada', 'Grace', 'Alan');
    expect((await setRole(t, ada.token, chatId, grace.user.id, 'admin')).status).toBe(200);
    // The owner's settings have no room socket: their notification socket hears another admin's change.
    const adaBell = await openNotifications(t, ada.token);
    expect((await setRole(t, grace.token, chatId, alan.user.id, 'admin')).status).toBe(200);
    await adaBell.client.next('chats_changed');
    await adaBell.client.close();
    expect((await setRole(t, grace.token, chatId, alan.user.id, 'member')).status).toBe(200);

    for (const actor of [grace, ada]) {
      for (const role of ['member', 'admin']) {
        const refused = await setRole(t, actor.token, chatId, ada.user.id, role);
        expect(refused.status, refused.text).toBe(403);
        expect(refused.body.detail).toBe(CHANNEL_TEXT.ownerStays);
      }
    }
    const rows = await memberRows(t, chatId);
    expect([roleOf(rows, ada.user.id), roleOf(rows, grace.user.id), roleOf(rows, alan.user.id)]).toEqual([
      'owner',
      'admin',
      'member',
    ]);
  });

  it('refuses a member changing roles (403), an outsider (404), a non-member target (404) and a bad role (400)', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Refusals', 'Ada', 'Grace');
    const [eve] = await people(t, 'Eve');

    const byMember = await setRole(t, grace.token, chatId, grace.user.id, 'admin');
    expect(byMember.status).toBe(403);
    expect(byMember.body.detail).toBe(CHANNEL_TEXT.onlyAdmins);
    expect((await setRole(t, eve.token, chatId, grace.user.id, 'admin')).status).toBe(404);
    expect((await setRole(t, ada.token, chatId, eve.user.id, 'admin')).status).toBe(404);
    expect((await setRole(t, ada.token, chatId, 'x', 'admin')).status).toBe(404);
    expect((await setRole(t, ada.token, chatId, grace.user.id, 'owner')).status).toBe(400);
    expect(roleOf(await memberRows(t, chatId), grace.user.id)).toBe('member');
  });

  it('lets the owner transfer ownership: the new owner is told live, the old one stays an admin', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan],
    } = await groupOf(t, 'Handover', 'Ada', 'Grace', 'Alan');
    const graceRoom = await joinRoom(t, grace.token, chatId);

    const res = await transfer(t, ada.token, chatId, grace.user.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.admin).toMatchObject({ id: grace.user.id });
    const upd = await graceRoom.next('chat_updated', (f) => f.chat.admin?.id === grace.user.id);
    expect(upd.chat.members.find((m: { id: number }) => m.id === ada.user.id).role).toBe('admin');
    const rows = await memberRows(t, chatId);
    expect([roleOf(rows, ada.user.id), roleOf(rows, grace.user.id)]).toEqual(['admin', 'owner']);

    // Ada is no longer the owner: she cannot transfer again, nor demote Grace; Alan never could.
    const again = await transfer(t, ada.token, chatId, alan.user.id);
    expect(again.status).toBe(403);
    expect(again.body.detail).toBe(CHANNEL_TEXT.onlyOwner);
    expect((await setRole(t, ada.token, chatId, grace.user.id, 'member')).status).toBe(403);
    expect((await transfer(t, alan.token, chatId, alan.user.id)).status).toBe(403);
    // The owner to themselves (400) or to someone outside (404).
    expect((await transfer(t, grace.token, chatId, grace.user.id)).status).toBe(400);
    const [eve] = await people(t, 'Eve');
    expect((await transfer(t, grace.token, chatId, eve.user.id)).status).toBe(404);
    expect((await transfer(t, eve.token, chatId, eve.user.id)).status).toBe(404);
    expect((await transfer(t, grace.token, chatId, 'nobody')).status).toBe(400);
    await graceRoom.close();
  });

  it('never lets an admin remove the owner or another admin; the owner removes an admin', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan],
    } = await groupOf(t, 'Removals', 'Ada', 'Grace', 'Alan');
    await setRole(t, ada.token, chatId, grace.user.id, 'admin');
    await setRole(t, ada.token, chatId, alan.user.id, 'admin');
    expect((await removeMemberCall(t, grace.token, chatId, ada.user.id)).status).toBe(403);
    expect((await removeMemberCall(t, grace.token, chatId, alan.user.id)).status).toBe(403);
    expect((await removeMemberCall(t, ada.token, chatId, alan.user.id)).status).toBe(200);
    expect((await memberRows(t, chatId)).map((r) => r.user_id)).toEqual([ada.user.id, grace.user.id]);
  });

  it('hands the group to the longest-standing admin when the owner leaves, else to the longest-standing member', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan, carol],
    } = await groupOf(t, 'Succession', 'Ada', 'Grace', 'Alan', 'Carol');
    // Alan is an admin, Grace (who joined before him) is not: Alan inherits.
    await setRole(t, ada.token, chatId, alan.user.id, 'admin');
    const carolRoom = await joinRoom(t, carol.token, chatId);
    expect((await leaveGroup(t, ada.token, chatId)).status).toBe(204);
    await carolRoom.next('chat_updated', (f) => f.chat.admin?.id === alan.user.id);
    let rows = await memberRows(t, chatId);
    expect([roleOf(rows, grace.user.id), roleOf(rows, alan.user.id)]).toEqual(['member', 'owner']);

    // No admin left once Alan leaves: Grace, the longest-standing member, owns it.
    expect((await leaveGroup(t, alan.token, chatId)).status).toBe(204);
    await carolRoom.next('chat_updated', (f) => f.chat.admin?.id === grace.user.id);
    rows = await memberRows(t, chatId);
    expect([roleOf(rows, grace.user.id), roleOf(rows, carol.user.id)]).toEqual(['owner', 'member']);
    await carolRoom.close();
  });
});

describe('announcement channels', () => {
  it("refuses a member's message with an error frame and stores nothing; admins post; reactions stay open", async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan],
    } = await groupOf(t, 'News', 'Ada', 'Grace', 'Alan');
    const patched = await patchGroup(t, ada.token, chatId, { posting: 'admins' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ posting: 'admins', visibility: 'private', group_name: 'News' });
    await setRole(t, ada.token, chatId, alan.user.id, 'admin');
    await t.ctx.lifecycle.settled();
    const chat = await t.ctx.db
      .selectFrom('chats')
      .select('id')
      .where('chat_id', '=', chatId)
      .executeTakeFirstOrThrow();
    const before = await messageCount(t, chat.id);

    const graceRoom = await joinRoom(t, grace.token, chatId);
    graceRoom.send({ type: 'chat_message', body: 'may I?', client_id: 'g-1' });
    const refused = await graceRoom.next('error', (f) => f.client_id === 'g-1');
    expect(refused.message).toBe('Only admins can post in this group.');
    expect(await messageCount(t, chat.id)).toBe(before);

    const adaRoom = await joinRoom(t, ada.token, chatId);
    const fromOwner = await say(adaRoom, 'From the owner');
    const alanRoom = await joinRoom(t, alan.token, chatId);
    await say(alanRoom, 'From an admin');
    expect(await messageCount(t, chat.id)).toBe(before + 2);

    const reacted = await t.put(
      `/api/chats/${chatId}/messages/${fromOwner.id}/reactions/${encodeURIComponent('👍')}/`,
      {},
      grace.token,
    );
    expect(reacted.status, reacted.text).toBe(200);
    await adaRoom.next('reactions_updated', (f) => f.message_id === fromOwner.id);

    // Back to everyone: Grace posts again.
    expect((await patchGroup(t, ada.token, chatId, { posting: 'everyone' })).status).toBe(200);
    await say(graceRoom, 'Now I may');
    await Promise.all([graceRoom.close(), adaRoom.close(), alanRoom.close()]);
  });

  it('lets only admins change who may post, and refuses an unknown value', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Settings', 'Ada', 'Grace');
    expect((await patchGroup(t, grace.token, chatId, { posting: 'admins' })).status).toBe(403);
    expect((await patchGroup(t, ada.token, chatId, { posting: 'nobody' })).status).toBe(400);
    const created = await t.post(
      '/api/chats/group/new/',
      { group_name: 'Born quiet', posting: 'admins' },
      ada.token,
    );
    expect(created.status, created.text).toBe(200);
    expect((await t.get(`/api/chats/${created.body.chat_id}/`, ada.token)).body.posting).toBe('admins');
  });
});
