import { pngOf } from '@parley/fixtures';
import { CHANNEL_TEXT, FORWARD_TEXT, SAFETY_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { uploadFiles } from '../attachments/attachment-helpers';
import { addMember, createGroup, history, newClientId, people, say, startChat } from '../chats/chat-helpers';
import { chatRow, groupOf, mediaFiles, messageCount, patchGroup } from '../groups/group-helpers';
import type { Json, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { joinRoom } from '../helpers/ws-client';

// Forwarding: a copy of a message sent to up to five chats the person is in, marked forwarded and nothing more
// (no sender or chat of origin), with the same files (new rows naming the same stored objects, so deleting
// one copy leaves the other's). Any target refused refuses them all; a deleted message cannot be forwarded.
const app = useTestApp();

const forward = (t: TestApp, token: string, chatId: string, messageId: number | string, to: unknown) =>
  t.post(`/api/chats/${chatId}/messages/${messageId}/forward/`, { to_chat_ids: to }, token);

describe('forward', () => {
  it('sends a marked copy to each chat, live to its members, telling nothing of where it came from', async () => {
    const t = app();
    const {
      chatId: source,
      people: [ada, grace, alan],
    } = await groupOf(t, 'Source', 'Ada', 'Grace', 'Alan');
    const privateChat = await startChat(t, ada.token, grace.user.id);
    const adaRoom = await joinRoom(t, ada.token, source);
    const original = await say(adaRoom, 'Worth reading');
    const graceRoom = await joinRoom(t, grace.token, privateChat);

    const res = await forward(t, alan.token, source, original.id, [privateChat]);
    expect(res.status, res.text).toBe(404);

    const sent = await forward(t, ada.token, source, original.id, [privateChat, privateChat]);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toHaveLength(1);
    const copy = sent.body[0] as Json;
    expect(copy).toMatchObject({
      body: 'Worth reading',
      forwarded: true,
      sender: ada.user.id,
      chatroom: privateChat,
    });
    expect(copy.id).not.toBe(original.id);
    expect(JSON.stringify(copy)).not.toContain(source);
    const live = await graceRoom.next('chat_message', (f) => f.message.id === copy.id);
    expect(live.message).toMatchObject({ forwarded: true, body: 'Worth reading' });
    const inChat = (await history(t, grace.token, privateChat)).find((m) => m.id === copy.id);
    expect(inChat).toMatchObject({ forwarded: true });
    // The original is not marked.
    expect(
      (await history(t, ada.token, source)).find((m) => m.id === original.id)?.forwarded,
    ).toBeUndefined();
    await Promise.all([adaRoom.close(), graceRoom.close()]);
  });

  it('refuses them all when one target is refused: not a member, an announcement channel, a block', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const source = await createGroup(t, ada.token, 'Mine');
    const withGrace = await startChat(t, ada.token, grace.user.id);
    const alansGroup = await createGroup(t, alan.token, 'Not mine');
    const adaRoom = await joinRoom(t, ada.token, source);
    const original = await say(adaRoom, 'Pass it on');
    const count = async () => messageCount(t, (await chatRow(t, withGrace))?.id as number);
    const before = await count();

    const outsider = await forward(t, ada.token, source, original.id, [withGrace, alansGroup]);
    expect(outsider.status, outsider.text).toBe(404);
    expect(await count()).toBe(before);

    // Alan's announcement channel, where Ada is a plain member.
    const news = await createGroup(t, alan.token, 'News');
    await addMember(t, news, ada.user.id);
    expect((await patchGroup(t, alan.token, news, { posting: 'admins' })).status).toBe(200);
    const announcement = await forward(t, ada.token, source, original.id, [withGrace, news]);
    expect(announcement.status, announcement.text).toBe(403);
    expect(announcement.body.detail).toBe(CHANNEL_TEXT.adminsOnly);
    expect(await count()).toBe(before);

    expect((await t.post(`/api/users/${ada.user.username}/block/`, {}, grace.token)).status).toBe(200);
    const blocked = await forward(t, ada.token, source, original.id, [withGrace]);
    expect(blocked.status, blocked.text).toBe(403);
    expect(blocked.body.detail).toBe(SAFETY_TEXT.cannotMessage);
    expect(await count()).toBe(before);
    await adaRoom.close();
  });

  it('refuses a deleted message (409), a system line, another chat’s message, bad ids and too many targets', async () => {
    const t = app();
    const {
      chatId: source,
      people: [ada, grace],
    } = await groupOf(t, 'Source', 'Ada', 'Grace');
    const target = await startChat(t, ada.token, grace.user.id);
    const room = await joinRoom(t, ada.token, source);
    const gone = await say(room, 'Regret this');
    expect(
      (await t.request('DELETE', `/api/chats/${source}/messages/${gone.id}/`, { token: ada.token })).status,
    ).toBe(204);
    const deleted = await forward(t, ada.token, source, gone.id, [target]);
    expect(deleted.status).toBe(409);
    expect(deleted.body.detail).toBe(FORWARD_TEXT.deleted);

    const systemLine = (await history(t, ada.token, source)).find((m) => m.kind === 'system');
    expect((await forward(t, ada.token, source, systemLine?.id as number, [target])).status).toBe(404);
    const elsewhere = await joinRoom(t, ada.token, target);
    const inTarget = await say(elsewhere, 'Other chat');
    expect((await forward(t, ada.token, source, inTarget.id, [target])).status).toBe(404);
    expect((await forward(t, ada.token, source, 'x', [target])).status).toBe(404);

    const kept = await say(room, 'Keep');
    for (const to of [[], ['a', 'b', 'c', 'd', 'e', 'f'], 'abc', [7]])
      expect((await forward(t, ada.token, source, kept.id, to)).status).toBe(400);
    expect(
      (await t.post(`/api/chats/${source}/messages/${kept.id}/forward/`, { to_chat_ids: [target] })).status,
    ).toBe(401);
    await Promise.all([room.close(), elsewhere.close()]);
  });

  it('forwards files as new rows of the same stored objects; deleting one copy keeps the other’s', async () => {
    const t = app();
    const {
      chatId: source,
      people: [ada, grace],
    } = await groupOf(t, 'Photos', 'Ada', 'Grace');
    const target = await startChat(t, ada.token, grace.user.id);
    const up = await uploadFiles(t, ada.token, source, [{ bytes: pngOf(40, 30), filename: 'p.png' }]);
    expect(up.status, up.text).toBe(200);
    const room = await joinRoom(t, ada.token, source);
    const clientId = newClientId('f');
    room.send({
      type: 'chat_message',
      body: 'A photo',
      client_id: clientId,
      file_ids: [up.body.files[0].id],
    });
    const original = (await room.next('chat_message', (f) => f.client_id === clientId)).message;
    const stored = await mediaFiles(t, 'files');

    const res = await forward(t, ada.token, source, original.id, [target]);
    expect(res.status, res.text).toBe(200);
    const copy = res.body[0] as Json;
    expect(copy.files).toHaveLength(1);
    expect(copy.files[0].id).not.toBe(original.files[0].id);
    expect(await mediaFiles(t, 'files')).toEqual(stored);
    const served = await fetch(`${t.baseUrl}${copy.files[0].file}`);
    expect(served.status).toBe(200);

    expect(
      (await t.request('DELETE', `/api/chats/${source}/messages/${original.id}/`, { token: ada.token }))
        .status,
    ).toBe(204);
    expect(await mediaFiles(t, 'files')).toEqual(stored);
    expect((await fetch(`${t.baseUrl}${copy.files[0].file}`)).status).toBe(200);
    expect(
      (await t.request('DELETE', `/api/chats/${target}/messages/${copy.id}/`, { token: ada.token })).status,
    ).toBe(204);
    await expect.poll(() => mediaFiles(t, 'files')).toEqual([]);
    await room.close();
  });
});
