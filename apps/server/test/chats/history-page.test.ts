import { pdfOf, pngOf } from '@parley/fixtures';
import { describe, expect, it } from 'vitest';
import * as repo from '../../src/modules/chats/chats.repo';
import { marksOf, toMessage } from '../../src/modules/messages/message-view';
import { uploadFiles } from '../attachments/attachment-helpers';
import { addMembers, clearChat, groupOf, leaveGroup } from '../groups/group-helpers';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { createGroup } from './chat-helpers';

// The history page (GET /api/chats/{id}/messages/) is read and serialised along a faster path (one query for
// chat and membership, senders from the members, a response schema): its JSON must stay byte for byte what
// the plain path gave, which this file rebuilds from the original queries and JSON.stringify.
const app = useTestApp();

/** The page as the route built it before: chat, membership, page joined with users, members, files. */
async function plainPage(t: TestApp, userId: number, chatId: string, query: Record<string, number>) {
  const db = t.ctx.db;
  const chat = await repo.findChatByPublicId(db, chatId);
  const member = chat && (await repo.findMembership(db, chat.id, userId));
  if (!chat || !member) throw new Error('not a member');
  const { before, after, limit = 50 } = query;
  let page = db
    .selectFrom('messages as m')
    .leftJoin('users as u', 'u.id', 'm.sender_id')
    .select([
      'm.id',
      'm.chat_id',
      'm.sender_id',
      'm.kind',
      'm.client_id',
      'm.body',
      'm.created_at',
      'm.edited_at',
      'm.deleted_at',
      'm.reply_to_id',
      'm.mentions',
      'u.username',
      'u.first_name',
      'u.last_name',
      'u.displayname',
      'u.avatar',
    ])
    .where('m.chat_id', '=', chat.id)
    .where('m.id', '>', member.cleared_before_id);
  // ?after wins over ?before, as the route has always read them.
  if (after === undefined && before !== undefined) page = page.where('m.id', '<', before);
  const rows =
    after !== undefined
      ? await page.where('m.id', '>', after).orderBy('m.id', 'asc').limit(limit).execute()
      : (await page.orderBy('m.id', 'desc').limit(limit).execute()).reverse();
  const marks = marksOf(await repo.membersOf(db, [chat.id]));
  const files = await t.ctx.attachments.filesFor(rows.map((r) => r.id));
  return JSON.stringify(
    rows.map((r) =>
      toMessage(
        r,
        chat.chat_id,
        r.username === null
          ? undefined
          : {
              username: r.username,
              first_name: r.first_name ?? '',
              last_name: r.last_name ?? '',
              displayname: r.displayname ?? '',
              avatar: r.avatar,
            },
        marks,
        files.get(r.id),
      ),
    ),
  );
}

/** Asserts the route's text equals the plain page (signed file URLs change on the hour: built either side). */
async function expectSamePage(
  t: TestApp,
  who: { token: string; user: { id: number } },
  chatId: string,
  query: Record<string, number> = {},
) {
  const qs = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  const before = await plainPage(t, who.user.id, chatId, query);
  const res = await t.get(`/api/chats/${chatId}/messages/${qs ? `?${qs}` : ''}`, who.token);
  const after = await plainPage(t, who.user.id, chatId, query);
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect([before, after]).toContain(res.text);
  return JSON.parse(res.text) as unknown[];
}

describe('GET /api/chats/{chat_id}/messages/ serialisation', () => {
  it('gives the same JSON as before: senders, departed senders, system lines, files, ticks, odd text', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, linus],
    } = await groupOf(t, 'History', 'Ada', 'Grace', 'Linus');
    await t.ctx.db
      .updateTable('users')
      .set({ avatar: 'grace.webp' })
      .where('id', '=', grace.user.id)
      .execute();
    await t.ctx.db.updateTable('users').set({ read_receipt: 0 }).where('id', '=', linus.user.id).execute();

    const send = async (userId: number, body: string, fileIds: number[] = []) => {
      const { message } = await t.ctx.messages.send(userId, chatId, { body, file_ids: fileIds });
      return message.id;
    };
    const odd = [
      'plain',
      'quotes " and \\ backslash',
      'line\nbreak\ttab\r\u0007bell',
      '👋🏽 héllo — 中文 \u2028\u2029',
      '</script><b>x</b> & <!-- -->',
      'x'.repeat(4000),
    ];
    const ids: number[] = [];
    for (const body of odd) ids.push(await send(ada.user.id, body));
    ids.push(await send(linus.user.id, 'linus was here'));
    const upload = await uploadFiles(t, grace.token, chatId, [
      { bytes: pngOf(64, 48), filename: 'photo "1".png' },
      { bytes: pdfOf(), filename: 'notes.pdf' },
    ]);
    expect(upload.status, upload.text).toBe(200);
    const fileIds = (upload.body.files as { id: number }[]).map((f) => f.id);
    ids.push(await send(grace.user.id, '', fileIds));
    ids.push(await send(grace.user.id, 'after the files'));
    expect((await leaveGroup(t, linus.token, chatId)).status).toBe(204);
    await t.ctx.messages.markDelivered(grace.user.id, chatId, [ids[2] as number]);
    await t.ctx.messages.markRead(grace.user.id, chatId, [ids[4] as number]);
    await t.ctx.messages.markRead(ada.user.id, chatId, [ids[8] as number]);
    await t.ctx.messages.receiptsSettled();

    const page = await expectSamePage(t, ada, chatId);
    // The page covers what this test is about.
    const text = JSON.stringify(page);
    expect(text).toContain('"sender_avatar":"/media/avatars/grace.webp"');
    expect(text).toContain('"kind":"system"');
    expect(text).toContain('"thumbnail":null');
    expect(text).toMatch(/"thumbnail":"\/api\/files\//);
    expect(text).toContain('"sender_name":"Linus Tester"');
    expect(text).toContain('"is_read":true');

    await expectSamePage(t, grace, chatId);
    await expectSamePage(t, grace, chatId, { limit: 3 });
    await expectSamePage(t, grace, chatId, { before: ids[7] as number, limit: 4 });
    await expectSamePage(t, grace, chatId, { after: ids[3] as number });
    await expectSamePage(t, grace, chatId, { after: ids[ids.length - 1] as number });

    // Cleared for Grace only: her page starts after the clear.
    expect((await clearChat(t, grace.token, chatId)).status).toBe(204);
    await send(ada.user.id, 'after the clear');
    expect(await expectSamePage(t, grace, chatId)).toHaveLength(1);
    await expectSamePage(t, ada, chatId, { limit: 100 });
  });

  it('reads the files, reactions and quotes of its own stretch only, with another chat’s messages in between', async () => {
    const t = app();
    const {
      chatId: here,
      people: [ada, grace],
    } = await groupOf(t, 'Here', 'Ada', 'Grace');
    const there = await createGroup(t, ada.token, 'There');
    expect((await addMembers(t, ada.token, there, { members: [grace.user.username] })).status).toBe(200);
    const send = async (chatId: string, body: string, o: { fileIds?: number[]; replyTo?: number } = {}) =>
      (await t.ctx.messages.send(ada.user.id, chatId, { body, file_ids: o.fileIds, reply_to: o.replyTo }))
        .message.id;
    const react = (chatId: string, id: number, emoji: string) =>
      t.ctx.messages.changes.react(grace.user.id, chatId, id, emoji, true);

    const quoted = await send(here, 'the start of it all');
    const older = await send(here, 'older, off the page');
    const upload = await uploadFiles(t, ada.token, there, [{ bytes: pngOf(8, 8), filename: 'there.png' }]);
    expect(upload.status, upload.text).toBe(200);
    const fileIds = (upload.body.files as { id: number }[]).map((f) => f.id);
    // The page of `here` runs from `first` to its last message; `there` has files and reactions in between.
    const first = await send(here, 'first on the page', { replyTo: quoted });
    const withFile = await send(there, 'a file elsewhere', { fileIds });
    await react(there, withFile, '🎉');
    const liked = await send(here, 'liked here');
    await react(here, liked, '👍');
    const alsoLiked = await send(there, 'liked elsewhere');
    await react(there, alsoLiked, '😂');
    const last = await send(here, 'last', { replyTo: first });

    const res = await t.get(`/api/chats/${here}/messages/?limit=3`, grace.token);
    expect(res.status, res.text).toBe(200);
    const page = res.body as { id: number; files: unknown[]; reactions: unknown[]; reply_to: unknown }[];
    expect(page.map((m) => m.id)).toEqual([first, liked, last]);
    expect(page.flatMap((m) => m.files)).toEqual([]);
    expect(page.map((m) => m.reactions)).toEqual([
      [],
      [{ emoji: '👍', count: 1, me: true, user_ids: [grace.user.id] }],
      [],
    ]);
    expect(page.map((m) => m.reply_to)).toEqual([
      {
        id: quoted,
        sender_id: ada.user.id,
        sender_name: 'Ada Tester',
        body: 'the start of it all',
        is_deleted: false,
      },
      null,
      {
        id: first,
        sender_id: ada.user.id,
        sender_name: 'Ada Tester',
        body: 'first on the page',
        is_deleted: false,
      },
    ]);
    expect(older).toBeLessThan(first);
    // The other chat's page has its own.
    const theirs = (await t.get(`/api/chats/${there}/messages/`, ada.token)).body as typeof page;
    const sent = theirs.filter((m) => m.id === withFile || m.id === alsoLiked);
    expect(sent.map((m) => [m.id, m.files.length, m.reactions.length])).toEqual([
      [withFile, 1, 1],
      [alsoLiked, 0, 1],
    ]);
  });

  it('answers a non-member and an unknown chat with the same 404 as before', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Closed', 'Ada');
    const eve = await t.signUpAndVerify();
    const outsider = await t.get(`/api/chats/${chatId}/messages/`, eve.token);
    const unknown = await t.get('/api/chats/no-such-chat/messages/', eve.token);
    expect(outsider.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(outsider.text).toBe(unknown.text);
    expect(outsider.body).toEqual({ detail: 'Chat not found.' });
    expect((await t.get(`/api/chats/${chatId}/messages/`, ada.token)).body).toEqual([]);
  });
});
