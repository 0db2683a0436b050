import {
  CHANNEL_TEXT,
  CLOSE_SERVICE_RESTART,
  GROUP_INVITE_AUDIT,
  GROUP_INVITE_INVALID,
  groupInvitePreviewSchema,
  groupInviteSchema,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { fullName, history, people, startChat } from '../chats/chat-helpers';
import { type SignedUp, startTestApp, type TestApp, useTestApp } from '../helpers/test-app';
import { twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';
import { joinRoom, openNotifications } from '../helpers/ws-client';
import {
  chatRow,
  groupOf,
  memberRows,
  newChannel,
  removeMemberCall,
  systemLines,
  watchRoom,
} from './group-helpers';

// Group invite links: made, listed and revoked by the group's admins, previewed and accepted by anyone signed
// in who holds a usable code (a private group too), with each refusal; the join told in the group as an added
// member is, and a link's last use decided once when people race for it.
const app = useTestApp();

const createInvite = (t: TestApp, token: string, chatId: string, body: Record<string, unknown> = {}) =>
  t.post(`/api/chats/${chatId}/invites/`, body, token);
const listInvites = (t: TestApp, token: string, chatId: string) =>
  t.get(`/api/chats/${chatId}/invites/`, token);
const revokeInvite = (t: TestApp, token: string, chatId: string, code: string) =>
  t.del(`/api/chats/${chatId}/invites/${code}/`, token);
const preview = (t: TestApp, token: string, code: string) => t.get(`/api/invites/${code}/`, token);
const accept = (t: TestApp, token: string, code: string) => t.post(`/api/invites/${code}/accept/`, {}, token);
const setRole = (t: TestApp, token: string, chatId: string, userId: number, role: 'admin' | 'member') =>
  t.request('PATCH', `/api/chats/${chatId}/members/${userId}/`, { token, json: { role } });

/** A link made by the group's admin, asserting the 200; its code. */
async function inviteCode(t: TestApp, admin: SignedUp, chatId: string, body: Record<string, unknown> = {}) {
  const res = await createInvite(t, admin.token, chatId, body);
  expect(res.status, res.text).toBe(200);
  return groupInviteSchema.parse(res.body).code;
}

const inviteRow = (t: TestApp, code: string) =>
  t.ctx.db.selectFrom('chat_invites').selectAll().where('code', '=', code).executeTakeFirstOrThrow();

const auditOf = (t: TestApp, type: string) =>
  t.ctx.db.selectFrom('audit_events').selectAll().where('type', '=', type).execute();

/** Every way a code can be dead answers alike: preview and accept both 404 with one message. */
async function expectDead(t: TestApp, token: string, code: string) {
  for (const res of [await preview(t, token, code), await accept(t, token, code)]) {
    expect(res.status, res.text).toBe(404);
    expect(res.body.detail).toBe(GROUP_INVITE_INVALID);
  }
}

describe('POST and GET /api/chats/{chat_id}/invites/', () => {
  it('lets the admin make links (128 random bits, the request origin in the url) and lists the usable ones, audited', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Links', 'Ada', 'Grace');
    const before = Date.now();
    const res = await createInvite(t, ada.token, chatId, { expires_in_hours: 24, max_uses: 5 });
    expect(res.status, res.text).toBe(200);
    const made = groupInviteSchema.strict().parse(res.body);
    expect(made.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(made.code, 'base64url')).toHaveLength(16);
    expect(made.url).toBe(`${t.baseUrl}/join/${made.code}`);
    expect(made).toMatchObject({ max_uses: 5, uses: 0 });
    const expires = Date.parse(made.expires_at as string);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3600_000);
    expect(expires).toBeLessThan(Date.now() + 24 * 3600_000 + 1000);

    // Neither limit given: a link that lasts until revoked.
    const open = await createInvite(t, ada.token, chatId);
    expect(open.status, open.text).toBe(200);
    expect(open.body).toMatchObject({ expires_at: null, max_uses: null, uses: 0 });
    expect(open.body.code).not.toBe(made.code);

    const list = await listInvites(t, ada.token, chatId);
    expect(list.status, list.text).toBe(200);
    expect(list.body.results).toEqual([open.body, made]);

    const audit = await auditOf(t, GROUP_INVITE_AUDIT.created);
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ actor_id: ada.user.id });
    expect(JSON.parse(audit[0]?.detail ?? '{}')).toMatchObject({
      chat_id: chatId,
      expires_in_hours: 24,
      max_uses: 5,
    });
    // The code itself is never written to the log.
    expect(audit.map((a) => a.detail).join()).not.toContain(made.code);
  });

  it('refuses limits out of range with 400 and makes nothing', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Bounds', 'Ada');
    for (const body of [
      { expires_in_hours: 0 },
      { expires_in_hours: 721 },
      { expires_in_hours: 1.5 },
      { max_uses: 0 },
      { max_uses: 1001 },
      { max_uses: '3' },
    ]) {
      const res = await createInvite(t, ada.token, chatId, body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(400);
    }
    expect((await createInvite(t, ada.token, chatId, { expires_in_hours: 720, max_uses: 1000 })).status).toBe(
      200,
    );
    expect((await listInvites(t, ada.token, chatId)).body.results).toHaveLength(1);
  });

  it('answers 403 to a plain member of a private group, 404 to an outsider, 400 in a one-to-one chat, 401 signed out', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Closed', 'Ada', 'Grace');
    const [eve] = await people(t, 'Eve');
    const code = await inviteCode(t, ada, chatId);

    expect((await createInvite(t, grace.token, chatId)).status).toBe(403);
    expect((await listInvites(t, grace.token, chatId)).status).toBe(403);
    expect((await revokeInvite(t, grace.token, chatId, code)).status).toBe(403);

    for (const res of [
      await createInvite(t, eve.token, chatId),
      await listInvites(t, eve.token, chatId),
      await revokeInvite(t, eve.token, chatId, code),
      await createInvite(t, eve.token, 'no-such-chat'),
    ]) {
      expect(res.status, res.text).toBe(404);
      expect(res.text).not.toContain('Closed');
    }

    const direct = await startChat(t, ada.token, grace.user.username);
    expect((await createInvite(t, ada.token, direct)).status).toBe(400);

    expect((await t.post(`/api/chats/${chatId}/invites/`, {})).status).toBe(401);
    expect((await t.get(`/api/invites/${code}/`)).status).toBe(401);
    expect((await t.post(`/api/invites/${code}/accept/`, {})).status).toBe(401);
    // Nothing of the refusals made or used a link.
    expect((await listInvites(t, ada.token, chatId)).body.results).toEqual([
      expect.objectContaining({ code, uses: 0 }),
    ]);
  });

  it('lets any member of a public group make and list links, but only its admins revoke them', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const made = await t.post(
      '/api/chats/group/new/',
      { group_name: 'Open door', visibility: 'public' },
      ada.token,
    );
    expect(made.status, made.text).toBe(200);
    const chatId: string = made.body.chat_id;
    expect((await t.post(`/api/chats/${chatId}/join/`, {}, grace.token)).status).toBe(200);

    const res = await createInvite(t, grace.token, chatId, { max_uses: 2 });
    expect(res.status, res.text).toBe(200);
    const { code } = groupInviteSchema.parse(res.body);
    expect((await listInvites(t, grace.token, chatId)).body.results).toEqual([res.body]);
    expect((await revokeInvite(t, grace.token, chatId, code)).status).toBe(403);
    // Outside the group, its links are not theirs to see, public or not.
    expect((await listInvites(t, alan.token, chatId)).status).toBe(404);
    expect((await preview(t, alan.token, code)).body).toMatchObject({
      visibility: 'public',
      member_count: 2,
    });
    expect((await revokeInvite(t, ada.token, chatId, code)).status).toBe(204);
  });

  it('revokes the links members made when the group turns private, and keeps the admins’', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const chatId = await newChannel(t, ada.token, 'Closing door');
    expect((await t.post(`/api/chats/${chatId}/join/`, {}, grace.token)).status).toBe(200);
    const members = groupInviteSchema.parse((await createInvite(t, grace.token, chatId)).body);
    const admins = groupInviteSchema.parse((await createInvite(t, ada.token, chatId)).body);
    const closed = await t.request('PATCH', `/api/chats/${chatId}/`, {
      token: ada.token,
      json: { visibility: 'private' },
    });
    expect(closed.status, closed.text).toBe(200);
    expect((await preview(t, alan.token, members.code)).status).toBe(404);
    expect((await accept(t, alan.token, members.code)).status).toBe(404);
    expect(
      (await listInvites(t, ada.token, chatId)).body.results.map((i: { code: string }) => i.code),
    ).toEqual([admins.code]);
    expect((await accept(t, alan.token, admins.code)).status).toBe(200);
  });

  it('follows roles: a promoted admin makes and revokes links, demoted again they may not', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Staff', 'Ada', 'Grace');
    const adas = await inviteCode(t, ada, chatId);
    const refused = await createInvite(t, grace.token, chatId);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(CHANNEL_TEXT.onlyAdmins);

    expect((await setRole(t, ada.token, chatId, grace.user.id, 'admin')).status).toBe(200);
    const graces = await inviteCode(t, grace, chatId);
    expect((await revokeInvite(t, grace.token, chatId, adas)).status).toBe(204);
    expect((await listInvites(t, grace.token, chatId)).body.results).toEqual([
      expect.objectContaining({ code: graces }),
    ]);

    expect((await setRole(t, ada.token, chatId, grace.user.id, 'member')).status).toBe(200);
    for (const res of [
      await createInvite(t, grace.token, chatId),
      await listInvites(t, grace.token, chatId),
      await revokeInvite(t, grace.token, chatId, graces),
    ]) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.detail).toBe(CHANNEL_TEXT.onlyAdmins);
    }
  });

  it("joins an announcement channel through a member's link as its join does: the line, and the watcher reopened", async () => {
    const t = app();
    const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
    const chatId = await newChannel(t, ada.token, 'Bulletin', { posting: 'admins' });
    expect((await t.post(`/api/chats/${chatId}/join/`, {}, grace.token)).status).toBe(200);
    const code = await inviteCode(t, grace, chatId, { max_uses: 1 });

    const adaRoom = await joinRoom(t, ada.token, chatId);
    const eveWatch = await watchRoom(t, eve.token, chatId);
    const joined = accept(t, eve.token, code);
    expect((await eveWatch.closed()).code).toBe(CLOSE_SERVICE_RESTART);
    expect((await joined).status).toBe(200);
    const line = `${fullName(eve)} joined`;
    expect((await adaRoom.next('chat_message', (f) => f.message.kind === 'system')).message.body).toBe(line);
    expect((await inviteRow(t, code)).uses).toBe(1);

    // In, Eve reads as a member and, as every member there, may not post.
    const eveRoom = await joinRoom(t, eve.token, chatId);
    eveRoom.send({ type: 'chat_message', body: 'hi all', client_id: 'e-1' });
    expect((await eveRoom.next('error', (f) => f.client_id === 'e-1')).message).toBe(CHANNEL_TEXT.adminsOnly);
    expect((await revokeInvite(t, grace.token, chatId, code)).status).toBe(403);
    await Promise.all([adaRoom.close(), eveRoom.close()]);
  });

  it('points links at PUBLIC_URL when it is set', async () => {
    const t = await startTestApp({ env: { PUBLIC_URL: 'https://chat.example.org/' } });
    try {
      const {
        chatId,
        people: [ada],
      } = await groupOf(t, 'Public address', 'Ada');
      const res = await createInvite(t, ada.token, chatId);
      expect(res.body.url).toBe(`https://chat.example.org/join/${res.body.code}`);
    } finally {
      await t.close();
    }
  });
});

describe('GET /api/invites/{code}/ and POST /api/invites/{code}/accept/', () => {
  it("shows the group to anyone signed in, then joins it: '{name} joined' and chat_updated live, chats_changed to the joiner", async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Hut 8', 'Ada', 'Grace');
    const [alan] = await people(t, 'Alan');
    const code = await inviteCode(t, ada, chatId, { max_uses: 3 });

    const seen = await preview(t, alan.token, code);
    expect(seen.status, seen.text).toBe(200);
    expect(groupInvitePreviewSchema.strict().parse(seen.body)).toEqual({
      chat_id: chatId,
      group_name: 'Hut 8',
      avatar: null,
      member_count: 2,
      visibility: 'private',
    });

    const graceRoom = await joinRoom(t, grace.token, chatId);
    const alanBell = await openNotifications(t, alan.token);
    const joined = await accept(t, alan.token, code);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body).toMatchObject({ chat_id: chatId, group_name: 'Hut 8', is_private: false });
    expect(joined.body.members.map((m: { id: number }) => m.id)).toContain(alan.user.id);
    // The chat detail's shape, as GET /api/chats/{chat_id}/ answers it.
    const detail = await t.get(`/api/chats/${chatId}/`, alan.token);
    expect(Object.keys(joined.body).sort()).toEqual(Object.keys(detail.body).sort());

    const line = `${fullName(alan)} joined`;
    const sys = await graceRoom.next('chat_message', (f) => f.message.kind === 'system');
    expect(sys.message).toMatchObject({ kind: 'system', body: line, chatroom: chatId });
    const upd = await graceRoom.next('chat_updated');
    expect(upd.chat.members.map((m: { id: number }) => m.id)).toContain(alan.user.id);
    await alanBell.client.next('chats_changed');
    expect(systemLines(await history(t, alan.token, chatId))).toContain(line);
    expect((await memberRows(t, chatId)).at(-1)).toEqual({ user_id: alan.user.id, role: 'member' });
    expect((await inviteRow(t, code)).uses).toBe(1);
    expect((await preview(t, alan.token, code)).body.member_count).toBe(3);
    const alanRoom = await joinRoom(t, alan.token, chatId);
    await Promise.all([graceRoom.close(), alanBell.client.close(), alanRoom.close()]);
  });

  it('counts one use when the same person accepts twice, and none for someone already in the group', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Once', 'Ada', 'Grace');
    const [alan] = await people(t, 'Alan');
    const code = await inviteCode(t, ada, chatId, { max_uses: 2 });

    expect((await accept(t, alan.token, code)).status).toBe(200);
    const again = await accept(t, alan.token, code);
    expect(again.status, again.text).toBe(200);
    expect(again.body.chat_id).toBe(chatId);
    expect((await accept(t, grace.token, code)).status).toBe(200);
    expect((await inviteRow(t, code)).uses).toBe(1);
    expect(systemLines(await history(t, ada.token, chatId))).toEqual([
      `${fullName(ada)} added ${fullName(grace)}`,
      `${fullName(alan)} joined`,
    ]);

    // Both of one person's accepts at once: still one join and one use.
    const [joan] = await people(t, 'Joan');
    const both = await Promise.all([accept(t, joan.token, code), accept(t, joan.token, code)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect((await inviteRow(t, code)).uses).toBe(2);
    expect((await memberRows(t, chatId)).filter((m) => m.user_id === joan.user.id)).toHaveLength(1);
  });

  it('answers one 404 for a code expired, used up, revoked or never made', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Dead ends', 'Ada');
    const [grace, alan] = await people(t, 'Grace', 'Alan');

    const expired = await inviteCode(t, ada, chatId, { expires_in_hours: 1 });
    await t.ctx.db
      .updateTable('chat_invites')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('code', '=', expired)
      .execute();
    await expectDead(t, grace.token, expired);

    const single = await inviteCode(t, ada, chatId, { max_uses: 1 });
    expect((await accept(t, grace.token, single)).status).toBe(200);
    await expectDead(t, alan.token, single);

    const revoked = await inviteCode(t, ada, chatId);
    expect((await preview(t, alan.token, revoked)).status).toBe(200);
    const res = await revokeInvite(t, ada.token, chatId, revoked);
    expect(res.status, res.text).toBe(204);
    await expectDead(t, alan.token, revoked);
    expect((await revokeInvite(t, ada.token, chatId, revoked)).status).toBe(404);

    await expectDead(t, alan.token, 'AAAAAAAAAAAAAAAAAAAAAA');
    // None of them is listed any more, and none let Alan in.
    expect((await listInvites(t, ada.token, chatId)).body.results).toEqual([]);
    expect((await memberRows(t, chatId)).map((m) => m.user_id)).not.toContain(alan.user.id);
  });

  it('revokes only its own group’s links, and the log says who revoked which', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Mine', 'Ada');
    const other = await groupOf(t, 'Theirs', 'Grace');
    const theirs = await inviteCode(t, other.people[0], other.chatId);
    expect((await revokeInvite(t, ada.token, chatId, theirs)).status).toBe(404);
    expect((await preview(t, ada.token, theirs)).status).toBe(200);

    const mine = await inviteCode(t, ada, chatId);
    expect((await revokeInvite(t, ada.token, chatId, mine)).status).toBe(204);
    const [row] = await auditOf(t, GROUP_INVITE_AUDIT.revoked);
    expect(row).toMatchObject({ actor_id: ada.user.id });
    expect(JSON.parse(row?.detail ?? '{}')).toEqual({
      chat_id: chatId,
      invite_id: (await inviteRow(t, mine)).id,
    });
  });

  it('lets exactly one of several people racing for a single-use link in', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'One seat', 'Ada');
    const racers = await people(t, 'Grace', 'Alan', 'Joan', 'Tommy');
    const code = await inviteCode(t, ada, chatId, { max_uses: 1 });

    const answers = await Promise.all(racers.map((p) => accept(t, p.token, code)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 404, 404, 404]);
    const winner = racers[answers.findIndex((r) => r.status === 200)] as SignedUp;
    expect((await memberRows(t, chatId)).map((m) => m.user_id)).toEqual([ada.user.id, winner.user.id]);
    expect((await inviteRow(t, code)).uses).toBe(1);
    await t.ctx.lifecycle.settled();
    expect(systemLines(await history(t, ada.token, chatId))).toEqual([`${fullName(winner)} joined`]);
  });

  it('brings back someone the admin removed, through a link still valid', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Second chance', 'Ada', 'Grace');
    const code = await inviteCode(t, ada, chatId);
    expect((await removeMemberCall(t, ada.token, chatId, grace.user.id)).status).toBe(200);
    expect((await t.get(`/api/chats/${chatId}/`, grace.token)).status).toBe(404);

    const back = await accept(t, grace.token, code);
    expect(back.status, back.text).toBe(200);
    expect((await t.get(`/api/chats/${chatId}/`, grace.token)).status).toBe(200);
    expect(systemLines(await history(t, grace.token, chatId)).at(-1)).toBe(`${fullName(grace)} joined`);
    expect((await inviteRow(t, code)).uses).toBe(1);
  });

  it('leaves a deleted group’s links with it', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Gone', 'Ada');
    const [grace] = await people(t, 'Grace');
    const code = await inviteCode(t, ada, chatId);
    const chat = await chatRow(t, chatId);
    expect((await t.del(`/api/chats/${chatId}/`, ada.token)).status).toBe(204);
    await expectDead(t, grace.token, code);
    const left = await t.ctx.db
      .selectFrom('chat_invites')
      .select('id')
      .where('chat_id', '=', chat?.id ?? -1)
      .execute();
    expect(left).toEqual([]);
  });

  it('limits how often one person opens and accepts links: 429 with Retry-After', async () => {
    const t = app();
    const [eve, grace] = await people(t, 'Eve', 'Grace');
    let last = await accept(t, eve.token, 'guess-0');
    for (let i = 1; last.status === 404 && i <= 40; i++) last = await accept(t, eve.token, `guess-${i}`);
    expect(last.status, last.text).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another person is not held back by Eve's tries.
    expect((await accept(t, grace.token, 'guess')).status).toBe(404);

    let seen = await preview(t, eve.token, 'guess-0');
    for (let i = 1; seen.status === 404 && i <= 200; i++) seen = await preview(t, eve.token, `guess-${i}`);
    expect(seen.status, seen.text).toBe(429);
  });
});

describe.skipIf(!twoProcessesEnabled)('invite links across two processes', () => {
  const processes = useTwoProcesses();
  const WAIT = 10_000;

  it('decides a single-use link raced on A and B once, and the member on A sees the join live over Redis', async () => {
    const { a, b } = processes();
    const ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    const grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
    const alan = await a.signUp({ first_name: 'Alan', last_name: 'Tester' });
    const made = await a.post('/api/chats/group/new/', { group_name: 'Across' }, ada.token);
    expect(made.status, made.text).toBe(200);
    const chatId: string = made.body.chat_id;
    const link = await b.post(`/api/chats/${chatId}/invites/`, { max_uses: 1 }, ada.token);
    expect(link.status, link.text).toBe(200);
    const adaRoom = (await a.joinRoom(ada.token, chatId, 'ada room')).client;

    const [onA, onB] = await Promise.all([
      a.post(`/api/invites/${link.body.code}/accept/`, {}, alan.token),
      b.post(`/api/invites/${link.body.code}/accept/`, {}, grace.token),
    ]);
    expect([onA.status, onB.status].sort()).toEqual([200, 404]);
    const winner = onA.status === 200 ? alan : grace;
    const line = `${winner.payload.first_name} Tester joined`;
    const sys = await adaRoom.next('chat_message', (f) => f.message.kind === 'system', WAIT);
    expect(sys.message.body).toBe(line);
    const upd = await adaRoom.next('chat_updated', undefined, WAIT);
    expect(upd.chat.members.map((m: { id: number }) => m.id).sort((x: number, y: number) => x - y)).toEqual(
      [ada.user.id, winner.user.id].sort((x, y) => x - y),
    );
    const listed = await a.get(`/api/chats/${chatId}/invites/`, ada.token);
    expect(listed.body.results).toEqual([]);
    await adaRoom.close();
  }, 120_000);
});
