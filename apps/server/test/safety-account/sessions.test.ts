import { CLOSE_AUTH_FAILED } from '@parley/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { people } from '../chats/chat-helpers';
import { sessionServiceOf } from '../helpers/sessions';
import { useTestApp } from '../helpers/test-app';
import { sleep } from '../helpers/waits';
import { openNotifications, type WsClient } from '../helpers/ws-client';
import { FIREFOX_LINUX, loginFrom, SAFARI_IPHONE } from './account-helpers';

// A person's sessions — listed with where they signed in from, signed out one by one or all but the
// current one; a signed-out session's sockets close with 4001 at once, and its token is refused.
const app = useTestApp();
const open: WsClient[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) c.close();
});

const SOCKET_CLOSE_MS = 3000;

describe('sessions', () => {
  it('lists the person’s own sessions with device, browser, address and times, the caller’s marked current', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const laptop = (await loginFrom(t, ada, FIREFOX_LINUX)).token;
    await loginFrom(t, ada, SAFARI_IPHONE);

    const res = await t.get('/api/users/sessions/', laptop);
    expect(res.status, res.text).toBe(200);
    const list = res.body.results;
    // The session sign-up verification made, and two logins; newest first.
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ device: 'Mobile', browser: 'Safari 17', os: 'iOS 17.2', current: false });
    expect(list[1]).toMatchObject({ device: 'Desktop', browser: 'Firefox 128', os: 'Linux', current: true });
    expect(list[1].ip).toBe('127.0.0.1');
    expect(Date.parse(list[1].created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(list[1].last_active).toBe(list[1].created_at);
    expect(list.filter((s: { current: boolean }) => s.current)).toHaveLength(1);

    // Someone else sees only their own; an outsider nothing.
    const theirs = await t.get('/api/users/sessions/', grace.token);
    expect(theirs.body.results).toHaveLength(1);
    expect(theirs.body.results[0].current).toBe(true);
    expect((await t.get('/api/users/sessions/')).status).toBe(401);
  });

  it('signs one session out: its token is refused and its sockets close with 4001 at once', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const phone = (await loginFrom(t, ada, SAFARI_IPHONE)).token;
    const phoneId = (await t.get('/api/users/sessions/', phone)).body.results[0].id;
    const phoneSocket = (await openNotifications(t, phone)).client;
    const adaSocket = (await openNotifications(t, ada.token)).client;
    open.push(phoneSocket, adaSocket);

    // Not Grace's to end, nor an outsider's: 404 and 401, and the session lives on.
    expect((await t.del(`/api/users/sessions/${phoneId}/`, grace.token)).status).toBe(404);
    expect((await t.del(`/api/users/sessions/${phoneId}/`)).status).toBe(401);
    expect((await t.del('/api/users/sessions/not-a-number/', ada.token)).status).toBe(404);
    expect((await t.get('/api/users/profile/', phone)).status).toBe(200);

    const started = Date.now();
    expect((await t.del(`/api/users/sessions/${phoneId}/`, ada.token)).status).toBe(204);
    expect((await phoneSocket.closed()).code).toBe(CLOSE_AUTH_FAILED);
    expect(Date.now() - started).toBeLessThan(SOCKET_CLOSE_MS);
    expect((await t.get('/api/users/profile/', phone)).status).toBe(401);
    // The session that asked is untouched, and so is its socket.
    expect((await t.get('/api/users/profile/', ada.token)).status).toBe(200);
    expect(adaSocket.isOpen).toBe(true);
    // A second try finds nothing.
    expect((await t.del(`/api/users/sessions/${phoneId}/`, ada.token)).status).toBe(404);

    const audit = await t.ctx.audit.list({ type: 'session.revoked' });
    expect(audit.results[0]).toMatchObject({ actor: { id: ada.user.id }, target: { id: ada.user.id } });
  });

  it('signs out every other session and keeps the current one', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const others = [
      (await loginFrom(t, ada, SAFARI_IPHONE)).token,
      (await loginFrom(t, ada, FIREFOX_LINUX)).token,
    ];
    const sockets = await Promise.all(
      others.map(async (token) => (await openNotifications(t, token)).client),
    );
    const mine = (await openNotifications(t, ada.token)).client;
    const graces = (await openNotifications(t, grace.token)).client;
    open.push(...sockets, mine, graces);

    expect((await t.post('/api/users/sessions/revoke-others/', {})).status).toBe(401);
    const res = await t.post('/api/users/sessions/revoke-others/', {}, ada.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ revoked: 2 });
    for (const s of sockets) expect((await s.closed()).code).toBe(CLOSE_AUTH_FAILED);
    for (const token of others) expect((await t.get('/api/users/profile/', token)).status).toBe(401);

    const left = (await t.get('/api/users/sessions/', ada.token)).body.results;
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);
    expect(mine.isOpen).toBe(true);
    // Grace's sessions are not Ada's to end.
    expect(graces.isOpen).toBe(true);
    expect((await t.get('/api/users/profile/', grace.token)).status).toBe(200);
    expect((await t.post('/api/users/sessions/revoke-others/', {}, ada.token)).body).toEqual({ revoked: 0 });
  });

  it('writes last active at most once an interval, not on every request', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const sessions = sessionServiceOf(t, { activityIntervalMs: 200, verifiedTtlMs: 0 }, t.ctx.events);
    const lastActive = async () =>
      (await t.ctx.db.selectFrom('sessions').select('last_active_at').executeTakeFirstOrThrow())
        .last_active_at;

    await sessions.verify(ada.token);
    expect(await lastActive()).toBeNull();
    await sleep(250);
    await sessions.verify(ada.token);
    await sleep(50);
    const first = await lastActive();
    expect(first).not.toBeNull();
    await sessions.verify(ada.token);
    await sessions.verify(ada.token);
    await sleep(50);
    expect(await lastActive()).toBe(first);
    await sleep(250);
    await sessions.verify(ada.token);
    await sleep(50);
    expect(Date.parse((await lastActive()) ?? '')).toBeGreaterThan(Date.parse(first ?? ''));
    const listed = (await t.get('/api/users/sessions/', ada.token)).body.results[0];
    expect(Date.parse(listed.last_active)).toBeGreaterThanOrEqual(Date.parse(first ?? ''));
  });
});
