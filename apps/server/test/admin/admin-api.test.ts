import { AUDIT, DEACTIVATED_LOGIN_MESSAGE } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { people as chatPeople, startChat } from '../chats/chat-helpers';
import { useTestApp } from '../helpers/test-app';
import { joinRoom, openNotifications } from '../helpers/ws-client';
import { adminAndPeople, auditOf } from './admin-helpers';

// The admin API: only a site admin sees it; each action ends, changes or records what it says.
const app = useTestApp();

const ROUTES: [string, string][] = [
  ['GET', '/api/admin/stats/'],
  ['GET', '/api/admin/users/'],
  ['GET', '/api/admin/users/1/'],
  ['POST', '/api/admin/users/1/deactivate/'],
  ['POST', '/api/admin/users/1/reactivate/'],
  ['POST', '/api/admin/users/1/verify/'],
  ['DELETE', '/api/admin/users/1/verify/'],
  ['POST', '/api/admin/users/1/sign-out/'],
  ['POST', '/api/admin/users/1/delete/'],
  ['GET', '/api/admin/reports/'],
  ['POST', '/api/admin/reports/1/resolve/'],
  ['GET', '/api/admin/audit/'],
  ['GET', '/api/admin/audit/types/'],
  ['GET', '/api/admin/settings/'],
  ['PUT', '/api/admin/settings/'],
  ['POST', '/api/admin/settings/invites/'],
  ['DELETE', '/api/admin/settings/invites/1/'],
];

describe('who sees the admin API', () => {
  it('the first account on a fresh server is its site admin; nobody else is', async () => {
    const { admin, people } = await adminAndPeople(app(), 1);
    const [other] = people;
    expect(other?.user.is_site_admin).toBe(false);
    const login = await app().login(admin.payload.email, admin.payload.password);
    expect(login.body.is_site_admin).toBe(true);
    const [granted] = await auditOf(app(), admin.token, AUDIT.adminGranted);
    expect(granted).toMatchObject({ actor: null, target: { id: admin.user.id }, detail: { first: true } });
  });

  it('answers 404 to anonymous callers, bad tokens and people who are not site admins, on every route', async () => {
    const { admin, people } = await adminAndPeople(app(), 1);
    const someone = people[0]?.token as string;
    for (const [method, path] of ROUTES) {
      for (const token of [undefined, 'not-a-token', someone]) {
        const res = await app().request(method, path, { token, json: method === 'GET' ? undefined : {} });
        expect(res.status, `${method} ${path} as ${token ? 'someone' : 'nobody'}`).toBe(404);
        expect(res.body).toEqual({ detail: 'Not found.' });
      }
    }
    // Even a malformed body tells an outsider nothing.
    const raw = await app().request('PUT', '/api/admin/settings/', { token: someone, rawBody: '{oops' });
    expect(raw.status).toBe(404);
    expect((await app().get('/api/admin/users/', admin.token)).status).toBe(200);
  });
});

describe('the people table', () => {
  it('searches name and email, sorts and pages', async () => {
    const { admin } = await adminAndPeople(app(), 0);
    await app().signUpAndVerify({
      first_name: 'Zed',
      last_name: 'Quill',
      email: `zq${Date.now()}@findme.test`,
    });
    await app().signUpAndVerify({ first_name: 'Amy', last_name: 'Quill' });
    await app().register({ first_name: 'Pending', last_name: 'Person' });

    const all = await app().get('/api/admin/users/', admin.token);
    expect(all.body).toMatchObject({ count: 4, page: 1, page_size: 25 });
    const pending = all.body.results.find((u: { displayname: string }) => u.displayname === 'Pending Person');
    expect(pending).toMatchObject({ is_activated: false, is_active: true, is_site_admin: false });

    const quill = await app().get('/api/admin/users/?q=quill&sort=displayname&order=asc', admin.token);
    expect(quill.body.results.map((u: { displayname: string }) => u.displayname)).toEqual([
      'Amy Quill',
      'Zed Quill',
    ]);
    const byMail = await app().get('/api/admin/users/?q=FINDME.test', admin.token);
    expect(byMail.body.results.map((u: { displayname: string }) => u.displayname)).toEqual(['Zed Quill']);
    // LIKE's own characters are taken literally.
    expect((await app().get('/api/admin/users/?q=%25', admin.token)).body.count).toBe(0);

    const page2 = await app().get('/api/admin/users/?page=2', admin.token);
    expect(page2.body).toMatchObject({ count: 4, page: 2, results: [] });
    const bad = await app().get('/api/admin/users/?sort=password_hash', admin.token);
    expect(bad.status).toBe(400);
  });
});

describe('deactivate and reactivate', () => {
  it("ends a chatting person's sockets at once, refuses their login, shows them inactive; reactivate undoes it", async () => {
    const { admin } = await adminAndPeople(app(), 0);
    const [ada, grace] = await chatPeople(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const room = await joinRoom(app(), ada.token, chatId);
    const { client: notes } = await openNotifications(app(), ada.token);
    const graceRoom = await joinRoom(app(), grace.token, chatId);

    const res = await app().post(
      `/api/admin/users/${ada.user.id}/deactivate/`,
      { note: 'spam' },
      admin.token,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: ada.user.id, is_active: false, deactivated_at: expect.any(String) });
    expect((await room.closed(3000)).code).toBe(4001);
    expect((await notes.closed(3000)).code).toBe(4001);
    expect(graceRoom.isOpen).toBe(true);
    expect((await app().get('/api/users/profile/', ada.token)).status).toBe(401);

    const login = await app().login(ada.payload.email, ada.payload.password);
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ detail: DEACTIVATED_LOGIN_MESSAGE });
    expect(login.body.token).toBeUndefined();
    // A wrong password still says only that.
    expect((await app().login(ada.payload.email, 'wrong-password-1')).status).toBe(400);

    const again = await app().post(`/api/admin/users/${ada.user.id}/deactivate/`, {}, admin.token);
    expect(again.status).toBe(409);
    const listed = await app().get(`/api/admin/users/?q=${ada.user.username}`, admin.token);
    expect(listed.body.results[0]).toMatchObject({ is_active: false });

    const back = await app().post(
      `/api/admin/users/${ada.user.id}/reactivate/`,
      { note: 'appeal' },
      admin.token,
    );
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ is_active: true, deactivated_at: null });
    expect((await app().login(ada.payload.email, ada.payload.password)).status).toBe(200);

    const [deactivated] = await auditOf(app(), admin.token, AUDIT.userDeactivated);
    expect(deactivated).toMatchObject({
      actor: { id: admin.user.id, username: admin.user.username },
      target: { id: ada.user.id, username: ada.user.username },
      detail: { note: 'spam' },
    });
    const [reactivated] = await auditOf(app(), admin.token, AUDIT.userReactivated);
    expect(reactivated).toMatchObject({ actor: { id: admin.user.id }, target: { id: ada.user.id } });
    const [refused] = await auditOf(app(), admin.token, AUDIT.deactivatedLogin);
    expect(refused).toMatchObject({ target: { id: ada.user.id } });
    await graceRoom.close();
  });

  it('refuses to deactivate yourself, and answers 404 for nobody', async () => {
    const { admin } = await adminAndPeople(app(), 0);
    const self = await app().post(`/api/admin/users/${admin.user.id}/deactivate/`, {}, admin.token);
    expect(self.status).toBe(400);
    expect((await app().post('/api/admin/users/999999/deactivate/', {}, admin.token)).status).toBe(404);
    expect((await app().post('/api/admin/users/abc/deactivate/', {}, admin.token)).status).toBe(400);
    const long = await app().post(`/api/admin/users/2/deactivate/`, { note: 'x'.repeat(501) }, admin.token);
    expect(long.status).toBe(400);
  });
});

describe('the badge, signing out and deletion', () => {
  it('verify and unverify set the public badge', async () => {
    const { admin, people } = await adminAndPeople(app(), 1);
    const p = people[0]!;
    const on = await app().post(`/api/admin/users/${p.user.id}/verify/`, {}, admin.token);
    expect(on.body).toMatchObject({ is_blue_verified: true });
    expect((await app().get(`/api/users/@${p.user.username}/`, p.token)).body.is_blue_verified).toBe(true);
    const off = await app().del(`/api/admin/users/${p.user.id}/verify/`, admin.token);
    expect(off.status).toBe(200);
    expect((await app().get(`/api/users/@${p.user.username}/`, p.token)).body.is_blue_verified).toBe(false);
    expect((await auditOf(app(), admin.token, AUDIT.userVerified))[0]?.target?.id).toBe(p.user.id);
    expect((await auditOf(app(), admin.token, AUDIT.userUnverified))[0]?.target?.id).toBe(p.user.id);
  });

  it('sign out everywhere ends every session and socket but the person can sign in again', async () => {
    const { admin, people } = await adminAndPeople(app(), 1);
    const p = people[0]!;
    const second = (await app().login(p.payload.email, p.payload.password)).body.token as string;
    const { client } = await openNotifications(app(), second);
    const res = await app().post(
      `/api/admin/users/${p.user.id}/sign-out/`,
      { note: 'lost phone' },
      admin.token,
    );
    expect(res.status).toBe(204);
    expect((await client.closed(3000)).code).toBe(4001);
    expect((await app().get('/api/users/profile/', p.token)).status).toBe(401);
    expect((await app().get('/api/users/profile/', second)).status).toBe(401);
    expect((await app().login(p.payload.email, p.payload.password)).status).toBe(200);
    expect((await auditOf(app(), admin.token, AUDIT.userSignedOut))[0]).toMatchObject({
      detail: { note: 'lost phone' },
    });
  });

  it('delete account removes the person as their own deletion does, and the log keeps their name', async () => {
    const { admin, people } = await adminAndPeople(app(), 1);
    const p = people[0]!;
    const res = await app().post(
      `/api/admin/users/${p.user.id}/delete/`,
      { note: 'asked by mail' },
      admin.token,
    );
    expect(res.status).toBe(204);
    expect((await app().get('/api/users/profile/', p.token)).status).toBe(401);
    expect((await app().login(p.payload.email, p.payload.password)).status).toBe(400);
    expect((await app().get(`/api/admin/users/${p.user.id}/`, admin.token)).status).toBe(404);
    const [deleted] = await auditOf(app(), admin.token, AUDIT.userDeleted);
    expect(deleted).toMatchObject({
      actor: { id: admin.user.id },
      target: { id: p.user.id, username: null },
      detail: { username: p.user.username, note: 'asked by mail' },
    });
    expect((await app().post(`/api/admin/users/${admin.user.id}/delete/`, {}, admin.token)).status).toBe(400);
  });
});

describe('the audit log', () => {
  it('records sign-in failures and the lockout, filterable by person', async () => {
    const { admin, people } = await adminAndPeople(app(), 1);
    const p = people[0]!;
    for (let i = 0; i < 5; i++)
      expect((await app().login(p.payload.email, 'wrong-password-1')).status).toBe(400);
    expect((await app().login(p.payload.email, p.payload.password)).status).toBe(429);
    expect((await app().login('nobody@example.test', 'wrong-password-1')).status).toBe(400);

    const failed = await auditOf(app(), admin.token, AUDIT.loginFailed);
    expect(failed).toHaveLength(6);
    expect(failed[0]).toMatchObject({ target: null, detail: { ip: expect.any(String) } });
    expect(failed[1]).toMatchObject({ target: { id: p.user.id, username: p.user.username } });
    expect(JSON.stringify(failed)).not.toContain('wrong-password');
    const locked = await auditOf(app(), admin.token, AUDIT.loginLocked);
    expect(locked).toHaveLength(1);

    const ofP = await app().get(`/api/admin/audit/?user=${p.user.username}`, admin.token);
    expect(ofP.body.results.every((e: { target: { id: number } }) => e.target.id === p.user.id)).toBe(true);
    expect(ofP.body.results).toHaveLength(6);
    expect((await app().get('/api/admin/audit/?user=nobody_here', admin.token)).body).toEqual({
      results: [],
      next: null,
    });
    expect((await app().get('/api/admin/audit/?type=DROP%20TABLE', admin.token)).status).toBe(400);
    const types = await app().get('/api/admin/audit/types/', admin.token);
    expect(types.body.types).toEqual(expect.arrayContaining([AUDIT.loginFailed, AUDIT.loginLocked]));
  });

  it('records wrong codes and the code lock', async () => {
    const { admin } = await adminAndPeople(app(), 0);
    const payload = await app().register();
    const code = await app().codeFor(payload.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++)
      await app().post('/api/users/email/verify/signup/', { email: payload.email, verification_code: wrong });
    expect(await auditOf(app(), admin.token, AUDIT.codeFailed)).toHaveLength(5);
    const [locked] = await auditOf(app(), admin.token, AUDIT.codeLocked);
    expect(locked).toMatchObject({ detail: { purpose: 'signup' } });
  });
});

describe('stats', () => {
  it('counts people, messages per day for 30 days, who is online and storage', async () => {
    const { admin } = await adminAndPeople(app(), 0);
    const [ada, grace] = await chatPeople(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const room = await joinRoom(app(), ada.token, chatId);
    room.send({ type: 'chat_message', body: 'hello', client_id: 'c1' });
    await room.next('chat_message');
    await app().post(`/api/admin/users/${grace.user.id}/deactivate/`, {}, admin.token);

    const res = await app().get('/api/admin/stats/', admin.token);
    expect(res.status).toBe(200);
    expect(res.body.people).toEqual({ total: 3, activated: 3, deactivated: 1, admins: 1 });
    expect(res.body.messages_per_day).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.messages_per_day.at(-1)).toEqual({ day: today, count: 1 });
    expect(res.body.online_now).toBe(1);
    expect(res.body.storage_bytes).toEqual(expect.any(Number));
    await room.close();
  });
});
