import { MAX_REACTION_EMOJI, MESSAGE_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { history } from '../chats/chat-helpers';
import type { Json, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { eventually, type Frame, type WsClient } from '../helpers/ws-client';
import {
  changeFrames,
  closeAll,
  deleteMessage,
  expectStatus,
  groupInRoom,
  react,
  send,
  sideRows,
  unreact,
} from './essentials-helpers';

// Reactions. PUT and DELETE …/reactions/{emoji}/ for one emoji grapheme, at most 20 different emoji
// on a message, idempotent; reactions_updated frames with who reacted; `me` per reader in HTTP answers.
const app = useTestApp();

/** The reactions of one message in a reader's history. */
async function reactionsSeenBy(t: TestApp, token: string, chatId: string, id: number): Promise<Json[]> {
  return (await history(t, token, chatId)).find((m) => m.id === id)?.reactions ?? [];
}

const hasFlag = (f: Frame) => f.reactions.some((r: { emoji: string }) => r.emoji === '🏁');

/**
 * Adds and takes back a reaction and waits until every socket has both frames: a frame the calls before had
 * caused would have arrived before these, so afterwards the sockets hold every frame those calls caused.
 */
async function settle(t: TestApp, token: string, chatId: string, id: number, rooms: WsClient[]) {
  const updates = (room: WsClient) => room.received('reactions_updated', (f) => f.message_id === id);
  const before = new Map(rooms.map((room) => [room, updates(room).length]));
  expectStatus(await react(t, token, chatId, id, '🏁'), 200);
  expectStatus(await unreact(t, token, chatId, id, '🏁'), 200);
  for (const room of rooms) {
    await eventually(async () => {
      const seen = updates(room).slice(before.get(room));
      const flagged = seen.findIndex(hasFlag);
      return flagged !== -1 && seen.slice(flagged + 1).some((f) => !hasFlag(f)) ? true : undefined;
    }, 'the flag added and taken back');
  }
}

describe('PUT and DELETE /api/chats/{chat_id}/messages/{message_id}/reactions/{emoji}/', () => {
  it('adds and takes back reactions: answers with `me` per reader, frames with user_ids to every member', async () => {
    const t = app();
    const { ada, grace, alan, chatId, adaRoom, rooms } = await groupInRoom(t);
    const sent = await send(adaRoom, 'React to me');
    expect(sent.reactions).toEqual([]);

    const byGrace = expectStatus(await react(t, grace.token, chatId, sent.id, '👍'), 200).body;
    expect(byGrace).toEqual({
      message_id: sent.id,
      reactions: [{ emoji: '👍', count: 1, me: true, user_ids: [grace.user.id] }],
    });
    for (const room of rooms) {
      const frame = await room.next('reactions_updated');
      expect(frame).toMatchObject({ type: 'reactions_updated', message_id: sent.id });
      expect(frame.reactions).toMatchObject([{ emoji: '👍', count: 1, user_ids: [grace.user.id] }]);
    }

    const byAda = expectStatus(await react(t, ada.token, chatId, sent.id, '👍'), 200).body;
    expect(byAda.reactions).toEqual([
      { emoji: '👍', count: 2, me: true, user_ids: [grace.user.id, ada.user.id] },
    ]);
    const byAlan = expectStatus(await react(t, alan.token, chatId, sent.id, '❤️'), 200).body;
    expect(byAlan.reactions).toEqual([
      { emoji: '👍', count: 2, me: false, user_ids: [grace.user.id, ada.user.id] },
      { emoji: '❤️', count: 1, me: true, user_ids: [alan.user.id] },
    ]);
    for (const room of rooms) {
      await room.next('reactions_updated', (f) => f.reactions.length === 1 && f.reactions[0].count === 2);
      const last = await room.next('reactions_updated', (f) => f.reactions.length === 2);
      expect(last.reactions).toMatchObject([
        { emoji: '👍', count: 2, user_ids: [grace.user.id, ada.user.id] },
        { emoji: '❤️', count: 1, user_ids: [alan.user.id] },
      ]);
    }

    // The history says `me` for whoever reads it.
    expect(await reactionsSeenBy(t, ada.token, chatId, sent.id)).toMatchObject([
      { emoji: '👍', count: 2, me: true },
      { emoji: '❤️', count: 1, me: false },
    ]);
    expect(await reactionsSeenBy(t, alan.token, chatId, sent.id)).toMatchObject([
      { emoji: '👍', count: 2, me: false },
      { emoji: '❤️', count: 1, me: true },
    ]);

    // Taking one back; the last one of an emoji takes the emoji away.
    const undone = expectStatus(await unreact(t, grace.token, chatId, sent.id, '👍'), 200).body;
    expect(undone).toEqual({
      message_id: sent.id,
      reactions: [
        { emoji: '👍', count: 1, me: false, user_ids: [ada.user.id] },
        { emoji: '❤️', count: 1, me: false, user_ids: [alan.user.id] },
      ],
    });
    expectStatus(await unreact(t, alan.token, chatId, sent.id, '❤️'), 200);
    for (const room of rooms) {
      await room.next('reactions_updated', (f) => f.reactions.length === 2 && f.reactions[0].count === 1);
      const last = await room.next('reactions_updated', (f) => f.reactions.length === 1);
      expect(last.reactions).toMatchObject([{ emoji: '👍', count: 1, user_ids: [ada.user.id] }]);
    }
    expect(await reactionsSeenBy(t, grace.token, chatId, sent.id)).toEqual([
      { emoji: '👍', count: 1, me: false, user_ids: [ada.user.id] },
    ]);
    await closeAll(rooms);
  });

  it('is idempotent: a second PUT or DELETE by the same person changes nothing and sends no frame', async () => {
    const t = app();
    const { grace, alan, chatId, adaRoom, rooms } = await groupInRoom(t);
    const sent = await send(adaRoom, 'Once is enough');
    const state = [{ emoji: '🎉', count: 1, me: true, user_ids: [grace.user.id] }];

    expect(expectStatus(await react(t, grace.token, chatId, sent.id, '🎉'), 200).body.reactions).toEqual(
      state,
    );
    for (const room of rooms) await room.next('reactions_updated');
    expect(expectStatus(await react(t, grace.token, chatId, sent.id, '🎉'), 200).body.reactions).toEqual(
      state,
    );
    // Taking back what one never gave changes nothing either.
    expectStatus(await unreact(t, alan.token, chatId, sent.id, '🎉'), 200);
    expect((await sideRows(t, sent.id)).reactions).toHaveLength(1);
    await settle(t, alan.token, chatId, sent.id, rooms);
    for (const room of rooms) expect(changeFrames(room)).toHaveLength(3);

    expect(expectStatus(await unreact(t, grace.token, chatId, sent.id, '🎉'), 200).body.reactions).toEqual(
      [],
    );
    for (const room of rooms) await room.next('reactions_updated', (f) => f.reactions.length === 0);
    expect(expectStatus(await unreact(t, grace.token, chatId, sent.id, '🎉'), 200).body.reactions).toEqual(
      [],
    );
    await settle(t, alan.token, chatId, sent.id, rooms);
    for (const room of rooms) expect(changeFrames(room)).toHaveLength(6);
    expect((await sideRows(t, sent.id)).reactions).toEqual([]);
    await closeAll(rooms);
  });

  it('takes a single emoji only: text or two emoji are a 400', async () => {
    const t = app();
    const { grace, chatId, adaRoom, rooms } = await groupInRoom(t);
    const sent = await send(adaRoom, 'Emoji only');

    const refused = ['a', 'ok', ':)', '👍👍', '👍🎉', '👍 ', ' 👍', '1', '#', '🇫', '<b>', '%'];
    for (const emoji of refused) {
      for (const call of [react, unreact]) {
        const res = await call(t, grace.token, chatId, sent.id, emoji);
        expect(res.status, `${call.name} ${JSON.stringify(emoji)}: ${res.text}`).toBe(400);
        expect(res.body, emoji).toEqual({ detail: MESSAGE_TEXT.badEmoji });
      }
    }
    expect((await sideRows(t, sent.id)).reactions).toEqual([]);

    // One grapheme each: a skin tone, a ZWJ family, a flag, a keycap, a pictograph with its presentation selector.
    const accepted = ['👍🏽', '👨‍👩‍👧', '🇫🇷', '1️⃣', '❤️', '🦀'];
    for (const emoji of accepted) {
      const res = await react(t, grace.token, chatId, sent.id, emoji);
      expect(res.status, `${emoji}: ${res.text}`).toBe(200);
    }
    expect((await reactionsSeenBy(t, grace.token, chatId, sent.id)).map((r) => r.emoji)).toEqual(accepted);
    await settle(t, grace.token, chatId, sent.id, rooms);
    // Only the accepted ones were announced.
    for (const room of rooms) expect(changeFrames(room)).toHaveLength(accepted.length + 2);
    await closeAll(rooms);
  });

  it('refuses the 21st different emoji on a message; more people may still use the 20', async () => {
    const t = app();
    const { ada, grace, alan, chatId, adaRoom, rooms } = await groupInRoom(t);
    const sent = await send(adaRoom, 'So many feelings');
    // 20 different pictographs (U+1F600…U+1F613), half from Grace, half from Alan.
    const twenty = Array.from({ length: MAX_REACTION_EMOJI }, (_, i) => String.fromCodePoint(0x1f600 + i));
    expect(MAX_REACTION_EMOJI).toBe(20);
    for (const [i, emoji] of twenty.entries()) {
      expectStatus(await react(t, i % 2 ? alan.token : grace.token, chatId, sent.id, emoji), 200, emoji);
    }
    const res = await react(t, ada.token, chatId, sent.id, '🦀');
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ detail: MESSAGE_TEXT.tooManyEmoji });
    expect((await react(t, grace.token, chatId, sent.id, '🦀')).status).toBe(400);

    // One of the twenty, by someone new: fine.
    const again = expectStatus(await react(t, ada.token, chatId, sent.id, twenty[1] as string), 200).body;
    expect(again.reactions).toHaveLength(20);
    expect(again.reactions[1]).toEqual({
      emoji: twenty[1],
      count: 2,
      me: true,
      user_ids: [alan.user.id, ada.user.id],
    });
    const seen = await reactionsSeenBy(t, ada.token, chatId, sent.id);
    expect(seen.map((r) => r.emoji)).toEqual(twenty);
    // Once one of the twenty is gone, a new one fits.
    expectStatus(await unreact(t, grace.token, chatId, sent.id, twenty[0] as string), 200);
    expectStatus(await react(t, ada.token, chatId, sent.id, '🦀'), 200);
    expect((await reactionsSeenBy(t, ada.token, chatId, sent.id)).map((r) => r.emoji)).toEqual([
      ...twenty.slice(1),
      '🦀',
    ]);
    await closeAll(rooms);
  });

  it('answers 404 to outsiders and for unknown messages, 409 on a deleted message', async () => {
    const t = app();
    const { ada, grace, eve, chatId, adaRoom, graceRoom, rooms } = await groupInRoom(t);
    const sent = await send(adaRoom, 'Members only');
    const gone = await send(adaRoom, 'Deleted');
    expectStatus(await deleteMessage(t, ada.token, chatId, gone.id), 204);
    await graceRoom.next('message_deleted');

    for (const call of [react, unreact]) {
      expect((await call(t, eve.token, chatId, sent.id, '👍')).status, call.name).toBe(404);
      expect((await call(t, grace.token, chatId, sent.id + 1000, '👍')).status, call.name).toBe(404);
      expect((await call(t, grace.token, chatId, gone.id, '👍')).status, call.name).toBe(409);
    }
    expect((await sideRows(t, sent.id)).reactions).toEqual([]);
    expect((await sideRows(t, gone.id)).reactions).toEqual([]);
    expect(changeFrames(graceRoom).map((f) => f.type)).toEqual(['message_deleted']);
    await closeAll(rooms);
  });

  it("a deleted account's reactions go with it (DESIGN §1: its data is deleted)", async () => {
    const t = app();
    const { ada, grace, alan, chatId, adaRoom, rooms } = await groupInRoom(t);
    const sent = await send(adaRoom, 'Goodbye party');
    expectStatus(await react(t, grace.token, chatId, sent.id, '👋'), 200);
    expectStatus(await react(t, alan.token, chatId, sent.id, '👋'), 200);
    await closeAll(rooms);

    expectStatus(await t.deleteAccount(grace.token), 204);
    expect(await reactionsSeenBy(t, ada.token, chatId, sent.id)).toEqual([
      { emoji: '👋', count: 1, me: false, user_ids: [alan.user.id] },
    ]);
    const rows = await t.ctx.db
      .selectFrom('message_reactions')
      .select('user_id')
      .where('user_id', '=', grace.user.id)
      .execute();
    expect(rows).toEqual([]);
  });
});
