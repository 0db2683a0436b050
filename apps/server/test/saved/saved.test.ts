import { MESSAGE_TEXT, SAVED_PAGE_SIZE, SAVED_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { adaAndGraceInRoom, history, people, say, seedMessages } from '../chats/chat-helpers';
import { clearChat, groupOf, newChannel } from '../groups/group-helpers';
import type { Json, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';

// Saved messages: PUT / DELETE /api/saved/{message_id}/ and GET /api/saved/?cursor=, private to the person; a
// message they cannot read is 404. Saving and unsaving are idempotent; the list pages newest saved first.
const app = useTestApp();

const save = (t: TestApp, token: string, messageId: number | string | undefined) =>
  t.request('PUT', `/api/saved/${messageId}/`, { token });
const unsave = (t: TestApp, token: string, messageId: number | string | undefined) =>
  t.request('DELETE', `/api/saved/${messageId}/`, { token });
const savedList = (t: TestApp, token: string, query = '') => t.get(`/api/saved/${query}`, token);
const savedIn = (t: TestApp, token: string, chatId: string) => t.get(`/api/chats/${chatId}/saved/`, token);
const ids = (res: { body: Json }) => res.body.results.map((r: Json) => r.message.id);

describe('saving messages', () => {
  it('lists whole messages with their chat, newest saved first; unsaves; each call idempotent', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom } = await adaAndGraceInRoom(t);
    const group = await groupOf(t, 'Book club', 'Bea', 'Ada');
    const direct = await say(adaRoom, 'Remember this');
    const [inGroup] = await seedMessages(t, group.people[0].user.id, group.chatId, ['Chapter 3 on Friday']);

    expect((await save(t, grace.token, direct.id)).status).toBe(204);
    const bea = group.people[0];
    expect((await save(t, bea.token, inGroup)).status).toBe(204);
    const list = await savedList(t, grace.token);
    expect(list.status, list.text).toBe(200);
    const [entry] = list.body.results;
    const shown = (await history(t, grace.token, chatId)).find((m) => m.id === direct.id);
    expect(entry).toEqual({
      message: shown,
      chat_id: chatId,
      chat_name: 'Ada Tester',
      is_private: true,
      saved_at: expect.any(String),
    });
    expect(list.body.next_cursor).toBeNull();

    expect((await save(t, grace.token, direct.id)).status).toBe(204);
    const again = await savedList(t, grace.token);
    expect(again.body.results).toEqual([entry]);

    // Bea's list is Bea's own: a group is named as her chat list names it.
    const beas = await savedList(t, bea.token);
    expect(
      beas.body.results.map((r: Json) => [r.message.body, r.chat_id, r.chat_name, r.is_private]),
    ).toEqual([['Chapter 3 on Friday', group.chatId, 'Book club', false]]);
    expect((await savedList(t, ada.token)).body.results).toEqual([]);
    expect((await savedIn(t, grace.token, chatId)).body).toEqual({ message_ids: [direct.id] });
    expect((await savedIn(t, ada.token, chatId)).body).toEqual({ message_ids: [] });

    const second = await say(adaRoom, 'And this');
    await save(t, grace.token, second.id);
    expect(ids(await savedList(t, grace.token))).toEqual([second.id, direct.id]);
    expect((await savedIn(t, grace.token, chatId)).body.message_ids).toEqual([second.id, direct.id]);

    expect((await unsave(t, grace.token, direct.id)).status).toBe(204);
    expect((await unsave(t, grace.token, direct.id)).status).toBe(204);
    // Someone else's unsave touches nothing of Grace's.
    expect((await unsave(t, ada.token, second.id)).status).toBe(204);
    expect(ids(await savedList(t, grace.token))).toEqual([second.id]);
  });

  it('refuses what the person cannot read (404), bad ids (404), a bad cursor (400) and no session (401)', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom } = await adaAndGraceInRoom(t);
    const [eve, owner] = await people(t, 'Eve', 'Olga');
    const message = await say(adaRoom, 'Between Ada and Grace');
    const refused = await save(t, eve.token, message.id);
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toBe(MESSAGE_TEXT.notFound);
    expect((await savedIn(t, eve.token, chatId)).status).toBe(404);
    for (const bad of ['abc', '0', '-3', '99999999999']) {
      expect((await save(t, ada.token, bad)).status, bad).toBe(404);
      expect((await unsave(t, ada.token, bad)).status, bad).toBe(404);
    }
    // An id that could be a message but is none: nothing to save, and nothing to unsave either.
    expect((await save(t, ada.token, 987_654_321)).status).toBe(404);
    expect((await unsave(t, ada.token, 987_654_321)).status).toBe(204);

    // A public channel previewed but not joined: readable there, not savable (it would drop out at once).
    const channel = await newChannel(t, owner.token, 'Open');
    const [open] = await seedMessages(t, owner.user.id, channel, ['Open to all']);
    expect((await save(t, eve.token, open)).status).toBe(404);

    const gone = await say(adaRoom, 'Deleted soon');
    await t.del(`/api/chats/${chatId}/messages/${gone.id}/`, ada.token);
    expect((await save(t, grace.token, gone.id)).status).toBe(404);
    expect((await clearChat(t, grace.token, chatId)).status).toBe(204);
    expect((await save(t, grace.token, message.id)).status).toBe(404);
    expect((await save(t, ada.token, message.id)).status).toBe(204);

    const badCursor = await savedList(t, ada.token, '?cursor=abc');
    expect(badCursor.status).toBe(400);
    expect(JSON.stringify(badCursor.body)).toContain(SAVED_TEXT.badCursor);
    // A cursor past any id is the start of the list.
    expect(ids(await savedList(t, ada.token, '?cursor=999999999999'))).toEqual([message.id]);
    expect((await t.get('/api/saved/')).status).toBe(401);
    expect((await t.request('PUT', `/api/saved/${message.id}/`)).status).toBe(401);
  });
});

describe('what drops out of the list', () => {
  it('drops a message deleted for everyone, and a chat the person left (back when they rejoin)', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom } = await adaAndGraceInRoom(t);
    const {
      chatId: groupId,
      people: [owner, member],
    } = await groupOf(t, 'Team', 'Olga', 'Mia');
    const [inGroup] = await seedMessages(t, owner.user.id, groupId, ['Group note']);
    const direct = await say(adaRoom, 'Direct note');
    const doomed = await say(adaRoom, 'Doomed note');
    await save(t, grace.token, direct.id);
    await save(t, grace.token, doomed.id);
    await save(t, member.token, inGroup);
    expect(ids(await savedList(t, grace.token))).toEqual([doomed.id, direct.id]);

    expect((await t.del(`/api/chats/${chatId}/messages/${doomed.id}/`, ada.token)).status).toBe(204);
    expect(ids(await savedList(t, grace.token))).toEqual([direct.id]);
    expect((await savedIn(t, grace.token, chatId)).body.message_ids).toEqual([direct.id]);

    expect((await t.post(`/api/chats/${groupId}/leave/`, {}, member.token)).status).toBe(204);
    expect((await savedList(t, member.token)).body.results).toEqual([]);
    const back = await t.post(
      `/api/chats/${groupId}/members/`,
      { members: [member.user.username] },
      owner.token,
    );
    expect(back.status, back.text).toBe(200);
    expect(ids(await savedList(t, member.token))).toEqual([inGroup]);
  });

  it('loses the rows of a deleted chat, of the saver’s deleted account and of a deleted sender’s messages', async () => {
    const t = app();
    const { ada, grace, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const {
      chatId: groupId,
      people: [owner, member],
    } = await groupOf(t, 'Gone soon', 'Olga', 'Mia');
    const [inGroup] = await seedMessages(t, owner.user.id, groupId, ['Group note']);
    const byAda = await say(adaRoom, 'From Ada');
    const byGrace = await say(graceRoom, 'From Grace');
    await save(t, member.token, inGroup);
    await save(t, grace.token, byAda.id);
    await save(t, grace.token, byGrace.id);
    await save(t, ada.token, byGrace.id);
    const rows = async () =>
      (
        await t.ctx.db.selectFrom('saved_messages').select(['user_id', 'message_id']).orderBy('id').execute()
      ).map((r) => [r.user_id, r.message_id]);

    expect((await t.del(`/api/chats/${groupId}/`, owner.token)).status).toBe(204);
    expect(await rows()).toEqual([
      [grace.user.id, byAda.id],
      [grace.user.id, byGrace.id],
      [ada.user.id, byGrace.id],
    ]);
    // Ada's account goes: her own saved row, and Grace's row of Ada's message (her messages go with her).
    expect((await t.deleteAccount(ada.token)).status).toBe(204);
    expect(await rows()).toEqual([[grace.user.id, byGrace.id]]);
  });
});

describe('paging', () => {
  it(`pages ${SAVED_PAGE_SIZE} at a time with next_cursor, full pages even past what dropped out`, async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom } = await adaAndGraceInRoom(t);
    const bodies = Array.from({ length: 2 * SAVED_PAGE_SIZE + 5 }, (_, i) => `note ${i}`);
    const messageIds = await seedMessages(t, ada.user.id, chatId, bodies);
    for (const id of messageIds) expect((await save(t, grace.token, id)).status).toBe(204);
    // Three deleted in the first page's stretch: the page is still full, from further back.
    for (const id of messageIds.slice(-3)) await t.del(`/api/chats/${chatId}/messages/${id}/`, ada.token);
    const newestFirst = messageIds.slice(0, -3).reverse();

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await savedList(t, grace.token, cursor ? `?cursor=${cursor}` : '');
      expect(res.status, res.text).toBe(200);
      pages += 1;
      if (res.body.next_cursor !== null) expect(res.body.results).toHaveLength(SAVED_PAGE_SIZE);
      seen.push(...ids(res));
      cursor = res.body.next_cursor;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(newestFirst);
    // A message added after the first page was read shows at the top next time, not in a later page.
    const late = await say(adaRoom, 'late');
    await save(t, grace.token, late.id);
    expect(ids(await savedList(t, grace.token))[0]).toBe(late.id);
  });
});
