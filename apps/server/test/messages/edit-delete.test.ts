import { pngOf } from '@parley/fixtures';
import { DELETED_MESSAGE_TEXT, MESSAGE_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { fetchPath, fileRows, uploadFiles } from '../attachments/attachment-helpers';
import { createGroup, history, myChats, nextMillisecond, say, seedMessages } from '../chats/chat-helpers';
import { mediaFiles } from '../groups/group-helpers';
import { type Json, useTestApp } from '../helpers/test-app';
import { openNotifications } from '../helpers/ws-client';
import {
  changeFrames,
  closeAll,
  deleteMessage,
  editMessage,
  editsOf,
  expectStatus,
  groupInRoom,
  messageRow,
  pairInRoom,
  react,
  send,
  sideRows,
} from './essentials-helpers';

// Editing one's own message (earlier versions kept, readable by members) and deleting a message for
// everyone (its text, versions, reactions and files erased), live to the whole room and in the chat list.
const app = useTestApp();

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('PATCH /api/chats/{chat_id}/messages/{message_id}/', () => {
  it('replaces the text for everyone: the answer, a message_updated frame to each member, the history', async () => {
    const t = app();
    const { ada, grace, alan, chatId, rooms, adaRoom, graceRoom } = await groupInRoom(t);
    const sent = await send(adaRoom, 'Helo, everyone');
    expect(sent.edited_at).toBeNull();

    const res = expectStatus(await editMessage(t, ada.token, chatId, sent.id, '  Hello, everyone  '), 200);
    expect(res.body).toMatchObject({
      id: sent.id,
      body: 'Hello, everyone',
      sender: ada.user.id,
      chatroom: chatId,
      is_deleted: false,
      timestamp: sent.timestamp,
    });
    expect(res.body.edited_at).toMatch(isoTime);
    for (const room of rooms) {
      const frame = await room.next('message_updated', (f) => f.message.id === sent.id);
      expect(frame.message).toMatchObject({ body: 'Hello, everyone', edited_at: res.body.edited_at });
    }
    for (const reader of [ada, grace, alan]) {
      const stored = (await history(t, reader.token, chatId)).find((m) => m.id === sent.id);
      expect(stored).toMatchObject({ body: 'Hello, everyone', edited_at: res.body.edited_at });
    }
    expect(graceRoom.received('message_updated')).toHaveLength(1);
    await closeAll(rooms);
  });

  it('keeps earlier versions, oldest first, each with the time it was replaced; members read them, outsiders 404', async () => {
    const t = app();
    const { ada, grace, eve, chatId, rooms, adaRoom } = await groupInRoom(t);
    const sent = await send(adaRoom, 'version one');
    // Nothing edited yet: no earlier versions.
    expect(expectStatus(await editsOf(t, grace.token, chatId, sent.id), 200).body).toEqual([]);

    const first = expectStatus(await editMessage(t, ada.token, chatId, sent.id, 'version two'), 200).body;
    await nextMillisecond();
    const second = expectStatus(await editMessage(t, ada.token, chatId, sent.id, 'version three'), 200).body;
    expect(second.edited_at > first.edited_at).toBe(true);

    const expected = [
      { body: 'version one', edited_at: first.edited_at },
      { body: 'version two', edited_at: second.edited_at },
    ];
    expect(expectStatus(await editsOf(t, ada.token, chatId, sent.id), 200).body).toEqual(expected);
    expect(expectStatus(await editsOf(t, grace.token, chatId, sent.id), 200).body).toEqual(expected);
    // Not a member: as if there were no such chat.
    expect((await editsOf(t, eve.token, chatId, sent.id)).status).toBe(404);
    // Not a message of this chat, or none at all.
    expect((await editsOf(t, ada.token, chatId, sent.id + 1000)).status).toBe(404);
    expect((await editsOf(t, ada.token, chatId, 'nope')).status).toBe(404);
    await closeAll(rooms);
  });

  it('refuses others, outsiders, deleted messages, system lines and bodies sending would refuse', async () => {
    const t = app();
    const { ada, grace, eve, chatId, adaRoom, graceRoom, rooms } = await groupInRoom(t);
    const mine = await send(adaRoom, 'Ada wrote this');
    const gone = await send(adaRoom, 'to be deleted');
    expectStatus(await deleteMessage(t, ada.token, chatId, gone.id), 204);
    await graceRoom.next('message_deleted');
    await t.ctx.messages.announce(await t.ctx.membership.ref(chatId), 'Ada renamed the group');
    const line = (await graceRoom.next('chat_message', (f) => f.message.kind === 'system')).message;
    // Another chat of Ada's, with its own message.
    const otherId = await createGroup(t, ada.token, 'Elsewhere');
    const [elsewhere] = await seedMessages(t, ada.user.id, otherId, ['another chat']);

    const cases: Array<[string, string, number | string, unknown, number, Json?]> = [
      ['not the sender', grace.token, mine.id, 'Grace was here', 403, { detail: MESSAGE_TEXT.notYours }],
      ['the admin, not the sender, of a system line', ada.token, line.id, 'edited', 403],
      ['an outsider', eve.token, mine.id, 'Eve was here', 404],
      ['a deleted message', ada.token, gone.id, 'back again', 409, { detail: MESSAGE_TEXT.deleted }],
      ['a message of another chat', ada.token, elsewhere as number, 'moved', 404],
      ['no such message', ada.token, mine.id + 1000, 'nothing', 404],
      ['a blank body', ada.token, mine.id, ' \n\t ', 400, { body: [MESSAGE_TEXT.blank] }],
      ['an empty body', ada.token, mine.id, '', 400, { body: [MESSAGE_TEXT.blank] }],
      ['a body too long', ada.token, mine.id, 'y'.repeat(4097), 400, { body: [MESSAGE_TEXT.tooLong] }],
      ['no body', ada.token, mine.id, undefined, 400, { body: ['This field is required.'] }],
      ['a body that is not text', ada.token, mine.id, 42, 400, { body: ['This field is required.'] }],
    ];
    for (const [what, token, id, body, status, answer] of cases) {
      const res = await editMessage(t, token, chatId, id, body);
      expect(res.status, `${what}: ${res.text}`).toBe(status);
      if (answer) expect(res.body, what).toEqual(answer);
    }
    const page = await history(t, ada.token, chatId);
    expect(page.find((m) => m.id === mine.id)).toMatchObject({ body: 'Ada wrote this', edited_at: null });
    expect(page.find((m) => m.id === gone.id)).toMatchObject({ body: '', is_deleted: true, edited_at: null });
    expect(page.find((m) => m.id === line.id)).toMatchObject({
      body: 'Ada renamed the group',
      edited_at: null,
    });
    expect((await history(t, ada.token, otherId)).map((m) => m.body)).toEqual(['another chat']);
    expect((await sideRows(t, mine.id)).edits).toEqual([]);

    // Exactly 4096 characters is allowed, as when sending; nothing else was announced.
    const longest = 'z'.repeat(4096);
    expect(expectStatus(await editMessage(t, ada.token, chatId, mine.id, longest), 200).body.body).toBe(
      longest,
    );
    await graceRoom.next('message_updated', (f) => f.message.body === longest);
    expect(changeFrames(graceRoom).map((f) => f.type)).toEqual(['message_deleted', 'message_updated']);
    await closeAll(rooms);
  });
});

describe('DELETE /api/chats/{chat_id}/messages/{message_id}/', () => {
  it('deletes for everyone: 204, message_deleted to each member, an empty marker in the history', async () => {
    const t = app();
    const { ada, grace, alan, chatId, adaRoom, rooms } = await groupInRoom(t);
    const keep = await send(adaRoom, 'stays');
    const sent = await send(adaRoom, 'I regret this');

    const res = await deleteMessage(t, ada.token, chatId, sent.id);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    for (const room of rooms) {
      expect(await room.next('message_deleted')).toEqual({ type: 'message_deleted', message_id: sent.id });
    }
    for (const reader of [ada, grace, alan]) {
      const page = await history(t, reader.token, chatId);
      expect(page.map((m) => m.id)).toEqual([keep.id, sent.id]);
      expect(page[1]).toMatchObject({
        id: sent.id,
        sender: ada.user.id,
        is_deleted: true,
        body: '',
        files: [],
        reactions: [],
        mentions: [],
      });
      expect(page[0]).toMatchObject({ body: 'stays', is_deleted: false });
    }
    // The text is gone from the database, not only hidden.
    const row = await messageRow(t, sent.id);
    expect(row.body).toBe('');
    expect(row.deleted_at).not.toBeNull();
    await closeAll(rooms);
  });

  it("erases the message's earlier versions, reactions and files: its file URLs answer 404", async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom, rooms } = await groupInRoom(t);
    const upload = await uploadFiles(t, ada.token, chatId, [
      { bytes: pngOf(32, 24), filename: 'secret.png' },
    ]);
    expect(upload.status, upload.text).toBe(200);
    const fileId = upload.body.files[0].id as number;
    const clientId = 'with-file';
    adaRoom.send({ type: 'chat_message', body: 'see attached', client_id: clientId, file_ids: [fileId] });
    const sent = (await adaRoom.next('chat_message', (f) => f.client_id === clientId)).message;
    const file = sent.files[0] as Json;
    expectStatus(await editMessage(t, ada.token, chatId, sent.id, 'see attached (v2)'), 200);
    expectStatus(await react(t, grace.token, chatId, sent.id, '👍'), 200);
    // Everything is there before the deletion, so the checks below can see it go.
    const urls = [file.file, file.thumbnail] as string[];
    for (const url of urls) expect((await fetchPath(t, url)).status, url).toBe(200);
    expect(await mediaFiles(t, 'files')).not.toEqual([]);
    const before = await sideRows(t, sent.id);
    expect([before.edits.length, before.reactions.length]).toEqual([1, 1]);
    expect(await fileRows(t, chatId)).toHaveLength(1);

    expectStatus(await deleteMessage(t, ada.token, chatId, sent.id), 204);
    await graceRoom.next('message_deleted', (f) => f.message_id === sent.id);

    for (const url of urls) expect((await fetchPath(t, url)).status, url).toBe(404);
    expect(await fileRows(t, chatId)).toEqual([]);
    expect(await mediaFiles(t, 'files')).toEqual([]);
    expect(await sideRows(t, sent.id)).toEqual({ edits: [], reactions: [] });
    expect(expectStatus(await editsOf(t, grace.token, chatId, sent.id), 200).body).toEqual([]);
    const stored = (await history(t, grace.token, chatId)).find((m) => m.id === sent.id);
    expect(stored).toMatchObject({ body: '', files: [], reactions: [], is_deleted: true });
    // A deleted message takes no new reactions.
    expect((await react(t, grace.token, chatId, sent.id, '❤️')).status).toBe(409);
    expect((await sideRows(t, sent.id)).reactions).toEqual([]);
    await closeAll(rooms);
  });

  it("lets a group's admin delete anyone's message; any other member 403, an outsider 404", async () => {
    const t = app();
    const { ada, grace, alan, eve, chatId, adaRoom, graceRoom, alanRoom, rooms } = await groupInRoom(t);
    const byGrace = await send(graceRoom, 'Grace says');
    const byAda = await send(adaRoom, 'Ada says');

    const refusals: Array<[string, string, number, number]> = [
      ["another member, Grace's message", alan.token, byGrace.id, 403],
      ["another member, the admin's message", grace.token, byAda.id, 403],
      ['an outsider', eve.token, byGrace.id, 404],
      ['no such message', ada.token, byAda.id + 1000, 404],
    ];
    for (const [what, token, id, status] of refusals) {
      const res = await deleteMessage(t, token, chatId, id);
      expect(res.status, `${what}: ${res.text}`).toBe(status);
    }
    expect((await deleteMessage(t, alan.token, chatId, byGrace.id)).body).toEqual({
      detail: MESSAGE_TEXT.cannotDelete,
    });
    const untouched = await history(t, alan.token, chatId);
    expect(untouched.filter((m) => m.is_deleted)).toEqual([]);

    // The admin deletes Grace's message.
    expectStatus(await deleteMessage(t, ada.token, chatId, byGrace.id), 204);
    expect((await alanRoom.next('message_deleted')).message_id).toBe(byGrace.id);
    const page = await history(t, alan.token, chatId);
    expect(page.find((m) => m.id === byGrace.id)).toMatchObject({ is_deleted: true, body: '' });
    expect(page.find((m) => m.id === byAda.id)).toMatchObject({ is_deleted: false, body: 'Ada says' });
    expect(changeFrames(alanRoom)).toHaveLength(1);
    await closeAll(rooms);
  });

  it('in a private chat nobody moderates: the other person may not delete mine (403)', async () => {
    const t = app();
    const { ada, grace, eve, chatId, adaRoom, graceRoom, rooms } = await pairInRoom(t);
    const byAda = await say(adaRoom, 'only mine to delete');
    expect((await deleteMessage(t, grace.token, chatId, byAda.id)).status).toBe(403);
    expect((await deleteMessage(t, eve.token, chatId, byAda.id)).status).toBe(404);
    expect((await history(t, grace.token, chatId))[0]).toMatchObject({ body: 'only mine to delete' });
    expectStatus(await deleteMessage(t, ada.token, chatId, byAda.id), 204);
    expect((await graceRoom.next('message_deleted')).message_id).toBe(byAda.id);
    await closeAll(rooms);
  });
});

describe('the chat list follows edits and deletions', () => {
  it("shows the edited text as last_message, then 'This message was deleted'; members' lists are told", async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom, rooms } = await pairInRoom(t);
    const lastOf = async (token: string) => (await myChats(t, token)).find((c) => c.chat_id === chatId);
    const first = await send(adaRoom, 'first');
    const second = await send(graceRoom, 'secnod');
    expect((await lastOf(ada.token))?.last_message).toBe('secnod');
    const bells = [
      (await openNotifications(t, ada.token)).client,
      (await openNotifications(t, grace.token)).client,
    ];

    expectStatus(await editMessage(t, grace.token, chatId, second.id, 'second'), 200);
    for (const bell of bells) await bell.next('chats_changed');
    for (const p of [ada, grace]) expect((await lastOf(p.token))?.last_message).toBe('second');
    // Editing or deleting an older message leaves the preview alone (and the lists are not told).
    expectStatus(await editMessage(t, ada.token, chatId, first.id, 'first, edited'), 200);
    expectStatus(await deleteMessage(t, ada.token, chatId, first.id), 204);
    expect((await lastOf(ada.token))?.last_message).toBe('second');

    expectStatus(await deleteMessage(t, grace.token, chatId, second.id), 204);
    for (const bell of bells) {
      await bell.next('chats_changed');
      expect(bell.received('chats_changed')).toHaveLength(2);
    }
    for (const p of [ada, grace]) {
      const item = await lastOf(p.token);
      expect(item?.last_message).toBe(DELETED_MESSAGE_TEXT);
      expect(item?.last_message_time).toBe(second.timestamp);
    }
    expect(DELETED_MESSAGE_TEXT).toBe('This message was deleted');
    await closeAll([...rooms, ...bells]);
  });
});
