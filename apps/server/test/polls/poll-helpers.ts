import type { PollInput } from '@parley/protocol';
import { expect } from 'vitest';
import { newClientId } from '../chats/chat-helpers';
import type { Json, TestApp } from '../helpers/test-app';
import type { WsClient } from '../helpers/ws-client';

// The polls calls, as the tests make them: a poll sent on the room socket, a vote and a close over HTTP.

/** Something with a request method: the in-process test app or a server process. */
interface Caller {
  request: TestApp['request'];
}

export const lunch: PollInput = {
  question: 'Where shall we have lunch?',
  options: ['Pizza', 'Soup', 'Salad'],
  multiple: false,
  anonymous: false,
};

/** Sends a poll on the room socket and waits for its echo; the stored message. */
export async function ask(client: WsClient, poll: Partial<PollInput> = {}, extra: Json = {}): Promise<Json> {
  const clientId = newClientId('poll');
  client.send({ type: 'chat_message', body: '', client_id: clientId, poll: { ...lunch, ...poll }, ...extra });
  const echo = await client.next('chat_message', (f) => f.client_id === clientId);
  expect(echo.message.poll, JSON.stringify(echo)).toBeTruthy();
  return echo.message;
}

/** Sends a frame that must be refused; the error frame's message. */
export async function refused(client: WsClient, frame: Json): Promise<string> {
  const clientId = newClientId('bad');
  client.send({ type: 'chat_message', body: '', client_id: clientId, ...frame });
  return (await client.next('error', (f) => f.client_id === clientId)).message;
}

export const vote = (
  t: Caller,
  token: string,
  chatId: string,
  messageId: number | string,
  options: unknown,
) => t.request('PUT', `/api/chats/${chatId}/messages/${messageId}/votes/`, { token, json: { options } });

export const closePoll = (t: Caller, token: string, chatId: string, messageId: number | string) =>
  t.request('POST', `/api/chats/${chatId}/messages/${messageId}/close/`, { token });

/** The next poll_updated frame of this message on this socket (matching `predicate`). */
export const pollUpdate = (
  client: WsClient,
  messageId: number,
  predicate: (poll: Json) => boolean = () => true,
) => client.next('poll_updated', (f) => f.message_id === messageId && predicate(f.poll));

/** The counts of a poll's options, in order. */
export const counts = (poll: Json): number[] => poll.options.map((o: Json) => o.votes);
