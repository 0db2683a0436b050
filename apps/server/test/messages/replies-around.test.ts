import { MESSAGE_TEXT, REPLY_QUOTE_LENGTH } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { createGroup, history, newClientId, say, seedMessages } from '../chats/chat-helpers';
import { useTestApp } from '../helpers/test-app';
import { closeAll, deleteMessage, expectStatus, groupInRoom, pairInRoom, send } from './essentials-helpers';

// Replies (a chat_message with reply_to quotes a message of the same chat, cut to 100 characters) and
// the page around a message that a click on a quote loads (?around=).
const app = useTestApp();

describe('chat_message with reply_to', () => {
  it('carries the quote to every member and in the history; the quote is cut to 100 characters', async () => {
    const t = app();
    const { ada, grace, alan, chatId, adaRoom, graceRoom, rooms } = await groupInRoom(t);
    // 120 characters, some outside the BMP: the cut counts characters, not UTF-16 units.
    const long = `${'😀'.repeat(10)}${'abcdefghij'.repeat(11)}`;
    const original = await send(adaRoom, long);
    const reply = await send(graceRoom, 'Quite right', original.id);

    const quote = {
      id: original.id,
      sender_name: 'Ada Tester',
      sender_id: ada.user.id,
      body: [...long].slice(0, REPLY_QUOTE_LENGTH).join(''),
      is_deleted: false,
    };
    expect(REPLY_QUOTE_LENGTH).toBe(100);
    expect([...quote.body]).toHaveLength(100);
    expect(quote.body.startsWith('😀'.repeat(10))).toBe(true);
    expect(reply.reply_to).toEqual(quote);
    for (const room of [adaRoom, rooms[2]]) {
      const frame = await room?.next('chat_message', (f) => f.message.id === reply.id);
      expect(frame?.message.reply_to).toEqual(quote);
    }
    for (const reader of [ada, grace, alan]) {
      const page = await history(t, reader.token, chatId);
      expect(page.find((m) => m.id === reply.id)?.reply_to).toEqual(quote);
      expect(page.find((m) => m.id === original.id)?.reply_to).toBeNull();
    }
    // The quoted message outside the page fetched is quoted all the same.
    const after = await history(t, alan.token, chatId, `?after=${original.id}`);
    expect(after.map((m) => m.id)).toEqual([reply.id]);
    expect(after[0]?.reply_to).toEqual(quote);
    await closeAll(rooms);
  });

  it('quotes a message deleted later as is_deleted with an empty body', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom, rooms } = await pairInRoom(t);
    const original = await send(adaRoom, 'something I will take back');
    const reply = await send(graceRoom, 'What?', original.id);
    expect(reply.reply_to).toMatchObject({ body: 'something I will take back', is_deleted: false });
    expectStatus(await deleteMessage(t, ada.token, chatId, original.id), 204);
    await graceRoom.next('message_deleted');

    const deletedQuote = {
      id: original.id,
      sender_name: 'Ada Tester',
      sender_id: ada.user.id,
      body: '',
      is_deleted: true,
    };
    const page = await history(t, grace.token, chatId);
    expect(page.find((m) => m.id === reply.id)?.reply_to).toEqual(deletedQuote);
    const after = await history(t, grace.token, chatId, `?after=${original.id}`);
    expect(after[0]?.reply_to).toEqual(deletedQuote);
    // A reply to the deleted message itself is still possible and quotes it the same way.
    expect((await send(graceRoom, 'Gone now', original.id)).reply_to).toEqual(deletedQuote);
    await closeAll(rooms);
  });

  it('refuses a reply to a message of another chat (or none) with an error frame; nothing is stored', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom, rooms } = await pairInRoom(t);
    const before = await send(adaRoom, 'the only message');
    // A chat Grace is in too, so only the chat of the quoted message is wrong.
    const otherId = await createGroup(t, grace.token, 'Other');
    const [foreign] = await seedMessages(t, grace.user.id, otherId, ['from another chat']);

    for (const [what, replyTo] of [
      ['another chat', foreign as number],
      ['no such message', before.id + 1000],
    ] as const) {
      const clientId = newClientId('bad-reply');
      graceRoom.send({ type: 'chat_message', body: 'misplaced', client_id: clientId, reply_to: replyTo });
      const error = await graceRoom.next('error', (f) => f.client_id === clientId);
      expect(error.message, what).toBe(MESSAGE_TEXT.badReply);
      expect(graceRoom.isOpen, what).toBe(true);
    }
    // The socket goes on; nobody saw the refused messages; neither chat stored them.
    await say(graceRoom, 'fine after');
    await adaRoom.next('chat_message', (f) => f.message.body === 'fine after');
    expect(adaRoom.received('chat_message', (f) => f.message.body === 'misplaced')).toEqual([]);
    expect(adaRoom.received('error')).toEqual([]);
    expect((await history(t, ada.token, chatId)).map((m) => m.body)).toEqual([
      'the only message',
      'fine after',
    ]);
    expect((await history(t, grace.token, otherId)).map((m) => m.body)).not.toContain('misplaced');
    await closeAll(rooms);
  });
});

describe('GET /api/chats/{chat_id}/messages/?around=', () => {
  it('answers at most `limit` consecutive messages with the message in the middle', async () => {
    const t = app();
    const { ada, grace, chatId, rooms } = await pairInRoom(t);
    const ids = await seedMessages(
      t,
      ada.user.id,
      chatId,
      Array.from({ length: 30 }, (_, i) => `message ${i}`),
    );
    const all = await history(t, grace.token, chatId, '?limit=100');
    expect(all.map((m) => m.id)).toEqual(ids);

    const around = async (id: number, limit: number) =>
      history(t, grace.token, chatId, `?around=${id}&limit=${limit}`);
    /** The page is a run of the full history that holds `id`. */
    const expectRun = (page: { id: number }[], id: number) => {
      const start = ids.indexOf(page[0]?.id as number);
      expect(start).toBeGreaterThanOrEqual(0);
      expect(page.map((m) => m.id)).toEqual(ids.slice(start, start + page.length));
      expect(page.map((m) => m.id)).toContain(id);
    };

    const middle = ids[15] as number;
    const odd = await around(middle, 9);
    expect(odd).toHaveLength(9);
    expectRun(odd, middle);
    expect(odd[4]?.id).toBe(middle);
    expect(odd[4]).toMatchObject({ body: 'message 15', chatroom: chatId });

    const even = await around(middle, 10);
    expect(even).toHaveLength(10);
    expectRun(even, middle);
    expect([4, 5]).toContain(even.findIndex((m) => m.id === middle));

    expect((await around(middle, 1)).map((m) => m.id)).toEqual([middle]);

    // Near either end there are fewer on one side: never more than `limit`, still consecutive.
    for (const id of [ids[0], ids[1], ids[28], ids[29]] as number[]) {
      const page = await around(id, 9);
      expect(page.length).toBeGreaterThanOrEqual(5);
      expect(page.length).toBeLessThanOrEqual(9);
      expectRun(page, id);
    }
    await closeAll(rooms);
  });

  it('answers 404 for an unknown message, a message of another chat, or an outsider', async () => {
    const t = app();
    const { ada, grace, eve, chatId, rooms } = await pairInRoom(t);
    const [mine] = await seedMessages(t, ada.user.id, chatId, ['here']);
    const otherId = await createGroup(t, ada.token, 'Other');
    const [foreign] = await seedMessages(t, ada.user.id, otherId, ['there']);

    const cases: Array<[string, string, number]> = [
      ['an unknown message', grace.token, (foreign as number) + 1000],
      ['a message of another chat', ada.token, foreign as number],
      ['an outsider', eve.token, mine as number],
    ];
    for (const [what, token, id] of cases) {
      const res = await t.get(`/api/chats/${chatId}/messages/?around=${id}&limit=10`, token);
      expect(res.status, `${what}: ${res.text}`).toBe(404);
    }
    expect((await history(t, grace.token, chatId, `?around=${mine}&limit=10`)).map((m) => m.body)).toEqual([
      'here',
    ]);
    await closeAll(rooms);
  });
});
