import type { RegisterPayload } from '@parley/protocol';
import { expect } from 'vitest';
import type { Json, SignedUp, TestApp } from '../helpers/test-app';
import { type Frame, joinRoom, type WsClient } from '../helpers/ws-client';

// What the chat tests share on top of the test app and the socket client.

/** Signs up and verifies people with the given first names (last name 'Tester'): full names stay distinct. */
export async function people<const N extends readonly string[]>(
  t: TestApp,
  ...firstNames: N
): Promise<{ [K in keyof N]: SignedUp }> {
  const out: SignedUp[] = [];
  for (const first_name of firstNames) {
    const overrides: Partial<RegisterPayload> = { first_name, last_name: 'Tester' };
    out.push(await t.signUpAndVerify(overrides));
  }
  return out as { [K in keyof N]: SignedUp };
}

export const fullName = (p: SignedUp) => `${p.payload.first_name} ${p.payload.last_name}`;

/** GET /api/chats/start/{target}/ asserting the 200; the chat_id. */
export async function startChat(t: TestApp, token: string, target: string | number): Promise<string> {
  const res = await t.get(`/api/chats/start/${encodeURIComponent(String(target))}/`, token);
  expect(res.status, res.text).toBe(200);
  expect(typeof res.body.chat_id).toBe('string');
  return res.body.chat_id;
}

/** Ada and Grace, their private chat, and each in its room (nothing awaited on the sockets yet). */
export async function adaAndGraceInRoom(t: TestApp) {
  const [ada, grace] = await people(t, 'Ada', 'Grace');
  const chatId = await startChat(t, ada.token, grace.user.username);
  const adaRoom = await joinRoom(t, ada.token, chatId);
  const graceRoom = await joinRoom(t, grace.token, chatId);
  return { ada, grace, chatId, adaRoom, graceRoom };
}

/** POST /api/chats/group/new/ asserting the 200; the chat_id. */
export async function createGroup(t: TestApp, token: string, name: string): Promise<string> {
  const res = await t.post('/api/chats/group/new/', { group_name: name }, token);
  expect(res.status, res.text).toBe(200);
  expect(typeof res.body.chat_id).toBe('string');
  return res.body.chat_id;
}

async function chatRow(t: TestApp, chatId: string) {
  return t.ctx.db.selectFrom('chats').select(['id']).where('chat_id', '=', chatId).executeTakeFirstOrThrow();
}

/** Adds a member to a group straight in the database (this issue has no add-member endpoint yet). */
export async function addMember(t: TestApp, chatId: string, userId: number): Promise<void> {
  const chat = await chatRow(t, chatId);
  await t.ctx.db
    .insertInto('chat_members')
    .values({ chat_id: chat.id, user_id: userId, role: 'member', joined_at: new Date().toISOString() })
    .execute();
}

/** Removes a membership straight in the database (as a later member-removal feature would). */
export async function removeMember(t: TestApp, chatId: string, userId: number): Promise<void> {
  const chat = await chatRow(t, chatId);
  await t.ctx.db
    .deleteFrom('chat_members')
    .where('chat_id', '=', chat.id)
    .where('user_id', '=', userId)
    .execute();
}

/** Stores messages through the chats service (no socket, no rate limit): history to page through. */
export async function seedMessages(t: TestApp, userId: number, chatId: string, bodies: string[]) {
  const ids: number[] = [];
  for (const body of bodies) ids.push((await t.ctx.messages.send(userId, chatId, { body })).message.id);
  return ids;
}

/** GET /api/chats/{id}/messages/ asserting the 200; the array. */
export async function history(t: TestApp, token: string, chatId: string, query = ''): Promise<Json[]> {
  const res = await t.get(`/api/chats/${chatId}/messages/${query}`, token);
  expect(res.status, res.text).toBe(200);
  expect(Array.isArray(res.body)).toBe(true);
  return res.body;
}

export async function detail(t: TestApp, token: string, chatId: string): Promise<Json> {
  const res = await t.get(`/api/chats/${chatId}/`, token);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export async function myChats(t: TestApp, token: string): Promise<Json[]> {
  const res = await t.get('/api/chats/my/', token);
  expect(res.status, res.text).toBe(200);
  return res.body.chats;
}

let clientIds = 0;
export const newClientId = (prefix = 'c') => `${prefix}-${++clientIds}-${Date.now().toString(36)}`;

/** Sends a chat_message and waits for its echo on the same socket; the stored message. */
export async function say(client: WsClient, body: string, clientId = newClientId()): Promise<Json> {
  client.send({ type: 'chat_message', body, client_id: clientId });
  const echo = await client.next(
    'chat_message',
    (f) => f.client_id === clientId && f.message?.body === body.trim(),
  );
  return echo.message;
}

/** The next chat_message frame carrying this body. */
export const messageWith = (client: WsClient, body: string): Promise<Frame> =>
  client.next('chat_message', (f) => f.message?.body === body);

/** Waits until the wall clock shows a later millisecond, so two stored timestamps cannot tie. */
export async function nextMillisecond(): Promise<void> {
  const start = Date.now();
  while (Date.now() === start) await new Promise((r) => setImmediate(r));
}
