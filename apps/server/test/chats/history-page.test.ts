import { pdfOf, pngOf } from '@parley/fixtures';
import { describe, expect, it } from 'vitest';
import * as repo from '../../src/modules/chats/chats.repo';
import { marksOf, toMessage } from '../../src/modules/messages/message-view';
import { uploadFiles } from '../attachments/attachment-helpers';
import { clearChat, groupOf, leaveGroup } from '../groups/group-helpers';
import { type TestApp, useTestApp } from '../helpers/test-app';

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
