import { addMember, createGroup, newClientId, people, startChat } from '../chats/chat-helpers';
import type { ApiResponse, Json, TestApp } from '../helpers/test-app';
import { joinRoom, type WsClient } from '../helpers/ws-client';

// What the conversation-essentials tests share: the calls on one message, and the rooms they watch.

const messagePath = (chatId: string, messageId: number | string) =>
  `/api/chats/${chatId}/messages/${messageId}/`;

/** PATCH …/messages/{id}/ {body}. */
export const editMessage = (t: TestApp, token: string, chatId: string, id: number | string, body: unknown) =>
  t.request('PATCH', messagePath(chatId, id), { json: { body }, token });

/** DELETE …/messages/{id}/. */
export const deleteMessage = (t: TestApp, token: string, chatId: string, id: number | string) =>
  t.del(messagePath(chatId, id), token);

/** GET …/messages/{id}/edits/. */
export const editsOf = (t: TestApp, token: string, chatId: string, id: number | string) =>
  t.get(`${messagePath(chatId, id)}edits/`, token);

const reactionPath = (chatId: string, id: number, emoji: string) =>
  `${messagePath(chatId, id)}reactions/${encodeURIComponent(emoji)}/`;

/** PUT …/reactions/{emoji}/ (the emoji URL-encoded). */
export const react = (t: TestApp, token: string, chatId: string, id: number, emoji: string) =>
  t.request('PUT', reactionPath(chatId, id, emoji), { token });

/** DELETE …/reactions/{emoji}/. */
export const unreact = (t: TestApp, token: string, chatId: string, id: number, emoji: string) =>
  t.del(reactionPath(chatId, id, emoji), token);

/** Throws with the answer unless it has this status; the answer. */
export function expectStatus(res: ApiResponse, status: number, what = ''): ApiResponse {
  if (res.status !== status) throw new Error(`${what} expected ${status}, got ${res.status} ${res.text}`);
  return res;
}

/** The database row id of a chat. */
export async function chatDbId(t: TestApp, chatId: string): Promise<number> {
  const row = await t.ctx.db
    .selectFrom('chats')
    .select('id')
    .where('chat_id', '=', chatId)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The stored row of a message, straight from the database. */
export const messageRow = (t: TestApp, id: number) =>
  t.ctx.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Rows of the earlier versions and the reactions of a message, straight from the database. */
export async function sideRows(t: TestApp, id: number) {
  const [edits, reactions] = await Promise.all([
    t.ctx.db.selectFrom('message_edits').selectAll().where('message_id', '=', id).execute(),
    t.ctx.db.selectFrom('message_reactions').selectAll().where('message_id', '=', id).execute(),
  ]);
  return { edits, reactions };
}

/** Sends a chat_message (optionally a reply) and waits for its echo; the stored message. */
export async function send(client: WsClient, body: string, replyTo?: number): Promise<Json> {
  const clientId = newClientId('ess');
  client.send({
    type: 'chat_message',
    body,
    client_id: clientId,
    ...(replyTo === undefined ? {} : { reply_to: replyTo }),
  });
  return (await client.next('chat_message', (f) => f.client_id === clientId)).message;
}

/** A group of three, Ada its admin, with everyone in the room; and Eve, who is in no chat with them. */
export async function groupInRoom(t: TestApp) {
  const [ada, grace, alan, eve] = await people(t, 'Ada', 'Grace', 'Alan', 'Eve');
  const chatId = await createGroup(t, ada.token, 'Essentials');
  await addMember(t, chatId, grace.user.id);
  await addMember(t, chatId, alan.user.id);
  const rooms = [
    await joinRoom(t, ada.token, chatId),
    await joinRoom(t, grace.token, chatId),
    await joinRoom(t, alan.token, chatId),
  ];
  const [adaRoom, graceRoom, alanRoom] = rooms as [WsClient, WsClient, WsClient];
  return { ada, grace, alan, eve, chatId, adaRoom, graceRoom, alanRoom, rooms };
}

/** A private chat between Ada and Grace, both in the room. */
export async function pairInRoom(t: TestApp) {
  const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
  const chatId = await startChat(t, ada.token, grace.user.username);
  const adaRoom = await joinRoom(t, ada.token, chatId);
  const graceRoom = await joinRoom(t, grace.token, chatId);
  await adaRoom.next('in_chat_count', (f) => f.count === 2);
  return { ada, grace, eve, chatId, adaRoom, graceRoom, rooms: [adaRoom, graceRoom] };
}

/** The frames of these types a socket received so far, in order (what changed, for "nothing else came"). */
export const changeFrames = (client: WsClient) =>
  client.frames.filter((f) => ['message_updated', 'message_deleted', 'reactions_updated'].includes(f.type));

export const closeAll = (clients: WsClient[]) => Promise.all(clients.map((c) => c.close()));
