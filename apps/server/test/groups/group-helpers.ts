import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CHANNEL_TEXT } from '@parley/protocol';
import sharp from 'sharp';
import { expect } from 'vitest';
import { createGroup, people } from '../chats/chat-helpers';
import type { ApiResponse, Json, SignedUp, TestApp } from '../helpers/test-app';
import { connectWs, roomPath, type WsClient } from '../helpers/ws-client';

// What the group-management tests share on top of the chat helpers: real API calls for adding members,
// multipart forms, a PNG too large to take, a public group's watcher socket, and direct looks at the stored
// rows and DATA_DIR/media.

export interface Upload {
  bytes: Uint8Array;
  filename?: string;
  type?: string;
  /** The multipart field name; `image` unless a test says otherwise. */
  field?: string;
}

async function readAnswer(res: Response): Promise<ApiResponse> {
  const text = await res.text();
  let body: Json = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json') && text) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}

/** Sends a multipart form as a browser does (boundary chosen by fetch). */
export async function sendForm(
  t: TestApp,
  method: string,
  urlPath: string,
  token: string | null,
  fields: Record<string, string>,
  uploads: Upload[] = [],
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const u of uploads) {
    const blob = new Blob([u.bytes], { type: u.type ?? 'application/octet-stream' });
    form.append(u.field ?? 'image', blob, u.filename ?? 'picture.png');
  }
  const res = await fetch(`${t.baseUrl}${urlPath}`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return readAnswer(res);
}

/** PATCH /api/chats/{id}/ as JSON. */
export const patchGroup = (t: TestApp, token: string, chatId: string, json: Record<string, unknown>) =>
  t.request('PATCH', `/api/chats/${chatId}/`, { json, token });

/** PATCH /api/chats/{id}/ as multipart with an optional `image`. */
export const patchGroupForm = (
  t: TestApp,
  token: string,
  chatId: string,
  fields: Record<string, string>,
  image?: Upload,
) => sendForm(t, 'PATCH', `/api/chats/${chatId}/`, token, fields, image ? [image] : []);

/** POST /api/chats/{id}/members/ with any body. */
export const addMembers = (t: TestApp, token: string, chatId: string, body: Record<string, unknown>) =>
  t.post(`/api/chats/${chatId}/members/`, body, token);

export const removeMemberCall = (t: TestApp, token: string, chatId: string, userId: number | string) =>
  t.del(`/api/chats/${chatId}/members/${userId}/`, token);

export const leaveGroup = (t: TestApp, token: string, chatId: string) =>
  t.post(`/api/chats/${chatId}/leave/`, {}, token);

export const deleteGroup = (t: TestApp, token: string, chatId: string) =>
  t.del(`/api/chats/${chatId}/`, token);

export const clearChat = (t: TestApp, token: string, chatId: string) =>
  t.post(`/api/chats/${chatId}/clear/`, {}, token);

/** A group made through the API: the admin creates it and adds the others (asserting the 200 each time). */
export async function groupOf<const N extends readonly string[]>(t: TestApp, name: string, ...firstNames: N) {
  const everyone = (await people(t, ...firstNames)) as SignedUp[];
  const [admin, ...rest] = everyone;
  if (!admin) throw new Error('groupOf needs at least the admin');
  const chatId = await createGroup(t, admin.token, name);
  for (const p of rest) {
    const res = await addMembers(t, admin.token, chatId, { members: [p.user.username] });
    expect(res.status, res.text).toBe(200);
  }
  // The frames of the setup (chat_updated, the 'added' lines) are out before a test opens its rooms, so a
  // room opened next never receives them.
  await t.ctx.lifecycle.settled();
  return { chatId, people: everyone as { [K in keyof N]: SignedUp } };
}

/** The stored chat row (undefined once the chat is gone). */
export const chatRow = (t: TestApp, chatId: string) =>
  t.ctx.db.selectFrom('chats').selectAll().where('chat_id', '=', chatId).executeTakeFirst();

/** The stored memberships of a chat: user id and role, in joining order. */
export async function memberRows(t: TestApp, chatId: string) {
  const chat = await chatRow(t, chatId);
  if (!chat) return [];
  return t.ctx.db
    .selectFrom('chat_members')
    .select(['user_id', 'role'])
    .where('chat_id', '=', chat.id)
    .orderBy('id')
    .execute();
}

/** How many messages (of any kind) a chat's database id has. */
export async function messageCount(t: TestApp, chatDbId: number): Promise<number> {
  const row = await t.ctx.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('chat_id', '=', chatDbId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A real PNG larger than `bytes` (random pixels do not compress). */
export async function bigPng(bytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(bytes / 3)) + 16;
  const raw = randomBytes(side * side * 3);
  const png = await sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  if (png.length <= bytes) throw new Error(`bigPng: only ${png.length} bytes`);
  return png;
}

/** The file names in DATA_DIR/media/{folder} (empty when the folder does not exist yet). */
export async function mediaFiles(t: TestApp, folder: 'avatars' | 'files'): Promise<string[]> {
  try {
    return (await fs.readdir(path.join(t.dataDir, 'media', folder)))
      .filter((n) => !n.endsWith('.tmp'))
      .sort();
  } catch {
    return [];
  }
}

/** The avatar's file name from its public URL. */
export const avatarName = (url: string): string => {
  const match = /^\/media\/avatars\/([^/]+)$/.exec(url);
  if (!match?.[1]) throw new Error(`Not an avatar URL: ${url}`);
  return match[1];
};

/** The system lines of a history, as their bodies. */
export const systemLines = (messages: Json[]): string[] =>
  messages.filter((m) => m.kind === 'system').map((m) => m.body);

/** A watcher's room socket, once the server handles its frames (its refused post comes back). */
export async function watchRoom(t: TestApp, token: string, chatId: string): Promise<WsClient> {
  const client = await connectWs(t, roomPath(chatId), token, { label: 'watcher' });
  client.send({ type: 'chat_message', body: 'hello?', client_id: 'w-probe' });
  expect((await client.next('error', (f) => f.client_id === 'w-probe')).message).toBe(
    CHANNEL_TEXT.joinToPost,
  );
  return client;
}

/** A public group made by `token`, asserting the 200; its chat id. */
export const newChannel = async (
  t: TestApp,
  token: string,
  name: string,
  extra: Record<string, unknown> = {},
) => {
  const res = await t.post(
    '/api/chats/group/new/',
    { group_name: name, visibility: 'public', ...extra },
    token,
  );
  expect(res.status, res.text).toBe(200);
  return res.body.chat_id as string;
};
