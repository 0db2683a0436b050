import type { TestApp } from '../helpers/test-app';

// The pins calls, as the tests make them. A message id may come from a destructured list (typed as possibly
// undefined): such a path names no message and answers 404, which the test then shows.

type MessageId = number | string | undefined;

export const pinsOf = (t: TestApp, token: string, chatId: string) =>
  t.get(`/api/chats/${chatId}/pins/`, token);

export const pin = (t: TestApp, token: string, chatId: string, messageId: MessageId) =>
  t.request('PUT', `/api/chats/${chatId}/pins/${messageId}/`, { token });

export const unpin = (t: TestApp, token: string, chatId: string, messageId: MessageId) =>
  t.request('DELETE', `/api/chats/${chatId}/pins/${messageId}/`, { token });

/** The stored pin rows (message ids), whatever chat or person they belong to. */
export async function pinRows(t: TestApp): Promise<number[]> {
  const rows = await t.ctx.db.selectFrom('pins').select('message_id').orderBy('id').execute();
  return rows.map((r) => r.message_id);
}
