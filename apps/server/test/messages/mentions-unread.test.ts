import { describe, expect, it } from 'vitest';
import { detail, history, myChats, seedMessages } from '../chats/chat-helpers';
import { type SignedUp, type TestApp, useTestApp } from '../helpers/test-app';
import { openNotifications } from '../helpers/ws-client';
import {
  closeAll,
  deleteMessage,
  editMessage,
  expectStatus,
  groupInRoom,
  pairInRoom,
  send,
} from './essentials-helpers';

// @username mentions (stored per message, notified with mention: true) and the reader's unread
// marker on the chat detail (unread_count, first_unread_id).
const app = useTestApp();

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('mentions', () => {
  it('stores the members a body mentions, in frames and the history; edits recompute them, deletion clears them', async () => {
    const t = app();
    const { ada, grace, alan, eve, chatId, adaRoom, rooms } = await groupInRoom(t);
    const body =
      `Hi @${grace.user.username}, and @${alan.user.username.toUpperCase()}! ` +
      `@${eve.user.username} is not here; mail x@${ada.user.username} is no mention; again @${grace.user.username}.`;
    const sent = await send(adaRoom, body);
    const expected = sorted([grace.user.id, alan.user.id]);
    expect(sorted(sent.mentions)).toEqual(expected);
    expect(sent.mentions).toHaveLength(2);
    for (const room of rooms.slice(1)) {
      const frame = await room.next('chat_message', (f) => f.message.id === sent.id);
      expect(sorted(frame.message.mentions)).toEqual(expected);
    }
    const stored = (await history(t, grace.token, chatId)).find((m) => m.id === sent.id);
    expect(sorted(stored?.mentions)).toEqual(expected);

    const plain = await send(adaRoom, 'nobody in particular @');
    expect(plain.mentions).toEqual([]);

    const edited = expectStatus(
      await editMessage(t, ada.token, chatId, sent.id, `Only @${alan.user.username}`),
      200,
    );
    expect(edited.body.mentions).toEqual([alan.user.id]);
    for (const room of rooms) {
      const frame = await room.next('message_updated', (f) => f.message.id === sent.id);
      expect(frame.message.mentions).toEqual([alan.user.id]);
    }
    expect((await history(t, alan.token, chatId)).find((m) => m.id === sent.id)?.mentions).toEqual([
      alan.user.id,
    ]);

    expectStatus(await deleteMessage(t, ada.token, chatId, sent.id), 204);
    expect((await history(t, alan.token, chatId)).find((m) => m.id === sent.id)?.mentions).toEqual([]);
    await closeAll(rooms);
  });

  it('tells a mentioned member away from the room with new_message mention: true; others without it', async () => {
    const t = app();
    const { grace, alan, chatId, adaRoom, rooms } = await groupInRoom(t);
    // Grace and Alan leave the room and watch their notification sockets.
    await Promise.all([rooms[1]?.close(), rooms[2]?.close()]);
    await adaRoom.next('in_chat_count', (f) => f.count === 1);
    const graceNotes = (await openNotifications(t, grace.token)).client;
    const alanNotes = (await openNotifications(t, alan.token)).client;

    const sent = await send(adaRoom, `@${grace.user.username} have a look`);
    const atGrace = await graceNotes.next('new_message', (f) => f.message.message_id === sent.id);
    expect(atGrace.message).toMatchObject({ chatroom_id: chatId, mention: true, sender: 'Ada Tester' });
    const atAlan = await alanNotes.next('new_message', (f) => f.message.message_id === sent.id);
    expect(atAlan.message.chatroom_id).toBe(chatId);
    expect(atAlan.message.mention).toBeUndefined();

    // A message mentioning nobody is no mention for anyone.
    const plain = await send(adaRoom, 'and nothing else');
    for (const notes of [graceNotes, alanNotes]) {
      const note = await notes.next('new_message', (f) => f.message.message_id === plain.id);
      expect(note.message.mention).toBeUndefined();
    }
    await closeAll([adaRoom, graceNotes, alanNotes]);
  });
});

describe('GET /api/chats/{chat_id}/ for its reader', () => {
  const unreadOf = async (t: TestApp, p: SignedUp, chatId: string) => {
    const d = await detail(t, p.token, chatId);
    return { unread_count: d.unread_count, first_unread_id: d.first_unread_id };
  };
  const read = async (t: TestApp, p: SignedUp, chatId: string, ids: number[]) => {
    await t.ctx.messages.markRead(p.user.id, chatId, ids);
    await t.ctx.messages.receiptsSettled();
  };

  it('counts what the other person sent since the reader last read, and names the first of it', async () => {
    const t = app();
    const { ada, grace, chatId, rooms } = await pairInRoom(t);
    await closeAll(rooms);
    const nothing = { unread_count: 0, first_unread_id: null };
    expect(await unreadOf(t, ada, chatId)).toEqual(nothing);

    const earlier = await seedMessages(t, grace.user.id, chatId, ['one', 'two']);
    await read(t, ada, chatId, earlier);
    expect(await unreadOf(t, ada, chatId)).toEqual(nothing);
    // Ada's own messages are never unread to her.
    await seedMessages(t, ada.user.id, chatId, ['my reply']);
    expect(await unreadOf(t, ada, chatId)).toEqual(nothing);

    const ten = await seedMessages(
      t,
      grace.user.id,
      chatId,
      Array.from({ length: 10 }, (_, i) => `news ${i + 1}`),
    );
    expect(await unreadOf(t, ada, chatId)).toEqual({ unread_count: 10, first_unread_id: ten[0] });
    // The chat list counts the same.
    expect((await myChats(t, ada.token)).find((c) => c.chat_id === chatId)?.unread_count).toBe(10);
    // Each reader has a count of their own: to Grace only Ada's reply is unread.
    const [reply] = (await history(t, grace.token, chatId)).filter((m) => m.body === 'my reply');
    expect(await unreadOf(t, grace, chatId)).toEqual({ unread_count: 1, first_unread_id: reply?.id });

    await read(t, ada, chatId, ten.slice(0, 4));
    expect(await unreadOf(t, ada, chatId)).toEqual({ unread_count: 6, first_unread_id: ten[4] });
    await read(t, ada, chatId, ten);
    expect(await unreadOf(t, ada, chatId)).toEqual(nothing);
  });

  it('leaves system lines out of the count in a group', async () => {
    const t = app();
    const { ada, grace, chatId, rooms } = await groupInRoom(t);
    await closeAll(rooms);
    await t.ctx.messages.announce(await t.ctx.membership.ref(chatId), 'Ada renamed the group');
    const [first] = await seedMessages(t, ada.user.id, chatId, ['welcome']);
    await seedMessages(t, ada.user.id, chatId, ['and hello']);
    expect(await unreadOf(t, grace, chatId)).toEqual({ unread_count: 2, first_unread_id: first });
  });
});
