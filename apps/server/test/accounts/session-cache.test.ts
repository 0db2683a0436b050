import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { hashToken, type SessionTimings } from '../../src/modules/accounts/session.service';
import { DomainEvents } from '../../src/platform/events';
import { GOOD_PASSWORD } from '../helpers/factories';
import { sessionServiceOf } from '../helpers/sessions';
import { type TestApp, useTestApp } from '../helpers/test-app';

// SessionService remembers verified sessions for a few seconds (DESIGN §8, history page): revocation in this
// process must still refuse the token at once, and nothing may outlive the session itself.
const app = useTestApp();

const sessionRow = (t: TestApp, token: string) =>
  t.ctx.db.selectFrom('sessions').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst();

const deleteRow = (t: TestApp, token: string) =>
  t.ctx.db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();

/** A SessionService of its own on the app's database, with its own events and cache settings. */
function service(t: TestApp, timings: Partial<SessionTimings> = {}) {
  const events = new DomainEvents();
  return { sessions: sessionServiceOf(t, timings, events), events };
}

describe('verified sessions over HTTP', () => {
  it('refuses a token at once after logout, though it was verified just before', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const other = (await app().login(payload.email, payload.password)).body.token as string;
    for (const t of [token, other]) expect((await app().get('/api/chats/my/', t)).status).toBe(200);

    expect((await app().post('/api/users/logout/', {}, token)).status).toBe(200);
    const res = await app().get('/api/chats/my/', token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: expect.any(String) });
    expect((await app().get('/api/users/profile/', token)).status).toBe(401);
    expect((await app().get('/api/chats/my/', other)).status).toBe(200);
  });

  it('refuses every token of the account at once after a password reset', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const other = (await app().login(payload.email, payload.password)).body.token as string;
    for (const t of [token, other]) expect((await app().get('/api/chats/my/', t)).status).toBe(200);

    const email = payload.email;
    expect((await app().post('/api/users/password/reset/request/', { email })).status).toBe(200);
    const mail = await app().mail.waitFor(email, { subject: /reset/i });
    const code = await app().codeFor(email, { subject: mail.subject });
    const confirmed = await app().post('/api/users/password/reset/confirm/', {
      email,
      verification_code: code,
      new_password: `${GOOD_PASSWORD}-new`,
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    for (const t of [token, other]) expect((await app().get('/api/chats/my/', t)).status).toBe(401);
  });

  it('refuses the token at once after the account is deleted', async () => {
    const { token } = await app().signUpAndVerify();
    expect((await app().get('/api/chats/my/', token)).status).toBe(200);
    expect((await app().deleteAccount(token)).status).toBe(204);
    // /chats/my/ would answer a remembered session of a deleted user with an empty list: it must not get that far.
    expect((await app().get('/api/chats/my/', token)).status).toBe(401);
  });
});

describe('SessionService.verify', () => {
  it('answers from memory within the time to live, and from the database after it', async () => {
    const { token, user } = await app().signUpAndVerify();
    const { sessions } = service(app(), { verifiedTtlMs: 1000 });
    const first = await sessions.verify(token);
    expect(first).toEqual({ sessionId: expect.any(Number), userId: user.id });

    // Gone from the database without this process hearing of it (another process revoked it).
    await deleteRow(app(), token);
    expect(await sessions.verify(token)).toEqual(first);
    await sleep(1100);
    expect(await sessions.verify(token)).toBeNull();
  });

  it('drops remembered sessions on revoke, revokeAll and a sessions.revoked event', async () => {
    const a = await app().signUpAndVerify();
    const a2 = (await app().login(a.payload.email, a.payload.password)).body.token as string;
    const b = await app().signUpAndVerify();
    const { sessions, events } = service(app());

    const sa = await sessions.verify(a.token);
    expect(sa).not.toBeNull();
    await sessions.revoke(sa as NonNullable<typeof sa>);
    expect(await sessions.verify(a.token)).toBeNull();
    expect(await sessions.verify(a2)).not.toBeNull();

    await sessions.revokeAll(a.user.id);
    expect(await sessions.verify(a2)).toBeNull();

    // Account deletion removes the rows itself and only announces it.
    const sb = await sessions.verify(b.token);
    await deleteRow(app(), b.token);
    expect(await sessions.verify(b.token)).toEqual(sb);
    events.emit('sessions.revoked', { userId: b.user.id, sessionIds: 'all' });
    expect(await sessions.verify(b.token)).toBeNull();
  });

  it('does not remember a session read just before it was revoked', async () => {
    const { token, user } = await app().signUpAndVerify();
    // Results of this service's queries wait at a gate, so the revocation lands between read and remember.
    let open = () => {};
    let gate = Promise.resolve();
    const db = app().ctx.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        await gate;
        return args.result;
      },
    });
    const events = new DomainEvents();
    const sessions = sessionServiceOf(app(), {}, events, db);
    gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const pending = sessions.verify(token);
    await sleep(50);
    // (The row goes after the gate opens: the held query keeps SQLite's one connection until then.)
    events.emit('sessions.revoked', { userId: user.id, sessionIds: 'all' });
    open();
    // Read before the revocation, so this one answer stands; it must not be remembered.
    expect(await pending).toEqual({ sessionId: expect.any(Number), userId: user.id });
    await deleteRow(app(), token);
    expect(await sessions.verify(token)).toBeNull();
  });

  it('never answers for a session past its expiry, and deletes the expired row', async () => {
    const { token } = await app().signUpAndVerify();
    await app()
      .ctx.db.updateTable('sessions')
      .set({ expires_at: new Date(Date.now() + 1000).toISOString() })
      .where('token_hash', '=', hashToken(token))
      .execute();
    const { sessions } = service(app(), { verifiedTtlMs: 60_000 });
    expect(await sessions.verify(token)).not.toBeNull();
    await sleep(1100);
    expect(await sessions.verify(token)).toBeNull();
    expect(await sessionRow(app(), token)).toBeUndefined();
  });

  it('keeps at most maxVerified sessions, forgetting the oldest first', async () => {
    const tokens = await Promise.all([1, 2, 3].map(async () => (await app().signUpAndVerify()).token));
    const { sessions } = service(app(), { maxVerified: 2 });
    for (const t of tokens) expect(await sessions.verify(t)).not.toBeNull();
    for (const t of tokens) await deleteRow(app(), t);
    expect(await sessions.verify(tokens[0])).toBeNull();
    expect(await sessions.verify(tokens[1])).not.toBeNull();
    expect(await sessions.verify(tokens[2])).not.toBeNull();
  });
});

describe('SessionService.liveAmong', () => {
  it('answers which sessions are live, as isLive does', async () => {
    const a = await app().signUpAndVerify();
    const b = await app().signUpAndVerify();
    const c = await app().signUpAndVerify();
    const ids = await Promise.all(
      [a.token, b.token, c.token].map(async (t) => (await sessionRow(app(), t))?.id as number),
    );
    const [live, expired, deleted] = ids as [number, number, number];
    await app()
      .ctx.db.updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired)
      .execute();
    await deleteRow(app(), c.token);

    const sessions = app().ctx.sessions;
    expect(await sessions.liveAmong([live, expired, deleted, live, 987_654])).toEqual(new Set([live]));
    for (const id of ids) expect(await sessions.isLive(id)).toBe(id === live);
    expect(await sessions.liveAmong([])).toEqual(new Set());
  });

  it('takes more ids than one query binds', async () => {
    const { token } = await app().signUpAndVerify();
    const id = (await sessionRow(app(), token))?.id as number;
    const many = Array.from({ length: 1234 }, (_, i) => 100_000 + i);
    many.splice(777, 0, id);
    expect(await app().ctx.sessions.liveAmong(many)).toEqual(new Set([id]));
  });
});
