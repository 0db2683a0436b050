import { API_TOKEN_PREFIX, SOCKET_ERRORS, TOKEN_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { adaAndGraceInRoom, history, newClientId, people, startChat } from '../chats/chat-helpers';
import type { TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { joinRoom } from '../helpers/ws-client';

// Personal access tokens (POST/GET/DELETE /api/users/tokens/) as Bearer credentials, and sending a message over
// HTTP (POST /api/chats/{chat_id}/messages/) with a session or a write token.
const app = useTestApp({ config: { messageRateLimit: 5 } });

async function mint(t: TestApp, session: string, scopes: string[], extra: object = {}) {
  const res = await t.post('/api/users/tokens/', { name: 'CI', scopes, ...extra }, session);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; token: string; scopes: string[]; expires_at: string | null };
}

const send = (t: TestApp, token: string, chatId: string, body: string, clientId = newClientId()) =>
  t.post(`/api/chats/${chatId}/messages/`, { body, client_id: clientId }, token);

describe('personal access tokens', () => {
  it('is shown once, listed without the secret, stored only as a hash, and revoked at once', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const created = await mint(t, ada.token, ['read'], { expires_in_days: 30 });
    expect(created.token.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(created.token).toMatch(/^prl_[0-9A-Za-z]{43}$/);
    expect(created.scopes).toEqual(['read']);
    expect(Date.parse(created.expires_at as string) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const listed = await t.get('/api/users/tokens/', ada.token);
    expect(listed.status).toBe(200);
    expect(listed.body.results).toHaveLength(1);
    expect(listed.body.results[0]).not.toHaveProperty('token');
    expect(listed.text).not.toContain(created.token);
    const rows = await t.ctx.db.selectFrom('api_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(created.token.slice(4));

    // The token reads as its owner.
    const profile = await t.get('/api/users/profile/', created.token);
    expect(profile.status, profile.text).toBe(200);
    expect(profile.body.username).toBe(ada.user.username);
    await expect
      .poll(async () => (await t.get('/api/users/tokens/', ada.token)).body.results[0].last_used_at)
      .not.toBeNull();

    expect((await t.del(`/api/users/tokens/${created.id}/`, ada.token)).status).toBe(204);
    expect((await t.get('/api/users/profile/', created.token)).status).toBe(401);
    expect((await t.get('/api/users/tokens/', ada.token)).body.results).toEqual([]);
    const audit = await t.ctx.db.selectFrom('audit_events').select('type').execute();
    expect(audit.map((a) => a.type)).toEqual(expect.arrayContaining(['token.created', 'token.revoked']));
  });

  it('refuses bad input with field errors, and another person’s token id is a 404', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const noName = await t.post('/api/users/tokens/', { name: ' ', scopes: ['read'] }, ada.token);
    expect(noName.status).toBe(400);
    expect(noName.body.name).toBeDefined();
    const badScopes = await t.post('/api/users/tokens/', { name: 'x', scopes: ['write'] }, ada.token);
    expect(badScopes.status).toBe(400);
    expect(badScopes.body.scopes).toBeDefined();
    const tooLong = await t.post(
      '/api/users/tokens/',
      { name: 'x', scopes: ['read'], expires_in_days: 366 },
      ada.token,
    );
    expect(tooLong.status).toBe(400);
    const graces = await mint(t, grace.token, ['read']);
    expect((await t.del(`/api/users/tokens/${graces.id}/`, ada.token)).status).toBe(404);
    expect((await t.get('/api/users/profile/', graces.token)).status).toBe(200);
  });

  it('never manages the account: tokens, sessions, 2FA, email, export, deletion and the admin API answer 403', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    // The first verified account on a fresh server is its site admin.
    const { token } = await mint(t, ada.token, ['read', 'write']);
    const refused = [
      ['POST', '/api/users/tokens/', { name: 'more', scopes: ['read'] }],
      ['GET', '/api/users/tokens/'],
      ['GET', '/api/users/sessions/'],
      ['POST', '/api/users/2fa/setup/', {}],
      ['PUT', '/api/users/email/update/', { email: 'new@example.com' }],
      ['POST', '/api/users/export/', {}],
      ['DELETE', '/api/users/account/delete/', { password: 'x' }],
      ['POST', '/api/users/logout/', {}],
      ['GET', '/api/admin/stats/'],
    ] as const;
    for (const [method, path, json] of refused) {
      const res = await t.request(method, path, { token, json });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
      expect(res.body.detail).toBe(TOKEN_TEXT.signInRequired);
    }
    // The account is still there and its session still works.
    expect((await t.get('/api/users/profile/', ada.token)).status).toBe(200);
  });
});

describe('sending over HTTP', () => {
  it('stores and fans out like a frame: 201, then 200 with the same message for a repeated client_id', async () => {
    const t = app();
    const { ada, chatId, graceRoom } = await adaAndGraceInRoom(t);
    const { token } = await mint(t, ada.token, ['read', 'write']);
    const first = await send(t, token, chatId, 'Deploy finished', 'ci-1');
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ body: 'Deploy finished', sender: ada.user.id, client_id: 'ci-1' });
    const live = await graceRoom.next('chat_message');
    expect(live.message.id).toBe(first.body.id);
    const again = await send(t, token, chatId, 'Deploy finished', 'ci-1');
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    // A session sends the same way.
    const bySession = await send(t, ada.token, chatId, 'And from the browser');
    expect(bySession.status).toBe(201);
    expect((await history(t, ada.token, chatId)).map((m) => m.body)).toEqual([
      'Deploy finished',
      'And from the browser',
    ]);
  });

  it('keeps the rules: a read token cannot send, an outsider gets 404, a blank body 400, the rate limit 429', async () => {
    const t = app();
    const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const read = await mint(t, ada.token, ['read']);
    const refused = await send(t, read.token, chatId, 'hello');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(TOKEN_TEXT.readOnly);
    // A read token still reads.
    expect((await t.get(`/api/chats/${chatId}/messages/`, read.token)).status).toBe(200);
    expect((await send(t, eve.token, chatId, 'let me in')).status).toBe(404);
    const blank = await send(t, ada.token, chatId, '   ');
    expect(blank.status).toBe(400);
    const noClientId = await t.post(`/api/chats/${chatId}/messages/`, { body: 'x' }, ada.token);
    expect(noClientId.status).toBe(400);
    expect(noClientId.body.client_id).toBeDefined();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await send(t, ada.token, chatId, `n${i}`)).status);
    // Five a window, the refused blank one counted: a flood of bad messages is a flood all the same.
    expect(statuses.filter((s) => s === 201)).toHaveLength(4);
    const limited = await send(t, ada.token, chatId, 'one more');
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toBe(SOCKET_ERRORS.rateLimited);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await history(t, ada.token, chatId)).toHaveLength(4);
  });
});

describe('tokens on sockets', () => {
  it('a read token receives frames but its chat_message is refused and stored nowhere; revoking closes it', async () => {
    const t = app();
    const { ada, grace, chatId, graceRoom } = await adaAndGraceInRoom(t);
    const read = await mint(t, grace.token, ['read']);
    const watcher = await joinRoom(t, read.token, chatId);
    await send(t, ada.token, chatId, 'for everyone');
    expect((await watcher.next('chat_message')).message.body).toBe('for everyone');
    watcher.send({ type: 'chat_message', body: 'from a read token', client_id: 'r-1' });
    const error = await watcher.next('error');
    expect(error).toMatchObject({ message: TOKEN_TEXT.readOnly, client_id: 'r-1' });
    await graceRoom.next('chat_message');
    expect((await history(t, ada.token, chatId)).map((m) => m.body)).toEqual(['for everyone']);

    const write = await mint(t, grace.token, ['read', 'write']);
    const writer = await joinRoom(t, write.token, chatId);
    writer.send({ type: 'chat_message', body: 'from a write token', client_id: 'w-1' });
    expect((await writer.next('chat_message')).message.body).toBe('from a write token');

    expect((await t.del(`/api/users/tokens/${read.id}/`, grace.token)).status).toBe(204);
    await watcher.closed();
    expect(ada.user.id).toBeGreaterThan(0);
  });
});
