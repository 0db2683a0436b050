import { MAX_PINS_PER_CHAT, MESSAGE_TEXT, PIN_TEXT, pinnedLine } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { adaAndGraceInRoom, fullName, history, people, say, seedMessages } from '../chats/chat-helpers';
import { groupOf, newChannel } from '../groups/group-helpers';
import { useTestApp } from '../helpers/test-app';
import { joinRoom } from '../helpers/ws-client';
import { pin, pinsOf, unpin } from './pin-helpers';

// Pins: PUT / DELETE /api/chats/{chat_id}/pins/{message_id}/ and GET …/pins/. Anyone in a private chat pins, in a
// group the owner and admins (a member 403, an outsider 404); the room hears pins_updated and, for a pin, the
// line '{name} pinned a message'; both calls are idempotent; a chat holds at most 50 pins.
const app = useTestApp();

describe('pinning in a private chat', () => {
  it('pins live to the room with a system line, lists newest pin first, and unpins', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const first = await say(adaRoom, 'First plan');
    const second = await say(graceRoom, 'Second plan');

    const res = await pin(t, grace.token, chatId, first.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ chat_id: chatId, pinned_ids: [first.id] });
    const frame = await adaRoom.next('pins_updated');
    expect(frame).toEqual({ type: 'pins_updated', chat_id: chatId, pinned_ids: [first.id] });
    const line = await adaRoom.next('chat_message', (f) => f.message.kind === 'system');
    expect(line.message.body).toBe(pinnedLine(fullName(grace)));
    expect(line.message.body).toBe('Grace Tester pinned a message');

    expect((await pin(t, ada.token, chatId, second.id)).body.pinned_ids).toEqual([second.id, first.id]);
    await graceRoom.next('pins_updated', (f) => f.pinned_ids.length === 2);
    const listed = await pinsOf(t, ada.token, chatId);
    expect(listed.status, listed.text).toBe(200);
    // Whole messages, as the history shows them.
    const shown = await history(t, ada.token, chatId);
    expect(listed.body).toEqual([
      shown.find((m) => m.id === second.id),
      shown.find((m) => m.id === first.id),
    ]);

    const off = await unpin(t, ada.token, chatId, first.id);
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({ chat_id: chatId, pinned_ids: [second.id] });
    expect((await graceRoom.next('pins_updated', (f) => f.pinned_ids[0] === second.id)).pinned_ids).toEqual([
      second.id,
    ]);
    expect((await pinsOf(t, grace.token, chatId)).body.map((m: { id: number }) => m.id)).toEqual([second.id]);
  });

  it('is idempotent: a second pin or unpin changes nothing and tells nobody', async () => {
    const t = app();
    const { ada, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const message = await say(adaRoom, 'Keep this');
    expect((await pin(t, ada.token, chatId, message.id)).status).toBe(200);
    expect((await pin(t, ada.token, chatId, message.id)).body.pinned_ids).toEqual([message.id]);
    expect((await unpin(t, ada.token, chatId, message.id)).body.pinned_ids).toEqual([]);
    expect((await unpin(t, ada.token, chatId, message.id)).body.pinned_ids).toEqual([]);
    await t.ctx.lifecycle.settled();
    // A marker message: everything before it has reached the room.
    await say(adaRoom, 'marker');
    await graceRoom.next('chat_message', (f) => f.message.body === 'marker');
    expect(graceRoom.received('pins_updated').map((f) => f.pinned_ids)).toEqual([[message.id], []]);
    const lines = graceRoom.received('chat_message', (f) => f.message.kind === 'system');
    expect(lines).toHaveLength(1);
    expect((await history(t, ada.token, chatId)).filter((m) => m.kind === 'system')).toHaveLength(1);
  });

  it('refuses bad ids, another chat’s message, system lines, thread-only replies and deleted messages', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom } = await adaAndGraceInRoom(t);
    const [eve] = await people(t, 'Eve');
    const other = await groupOf(t, 'Elsewhere', 'Alan');
    const [elsewhere] = await seedMessages(t, other.people[0].user.id, other.chatId, ['Not here']);
    for (const bad of ['abc', '0', '-1', '99999999999', '2147483648', String(elsewhere), '987654321']) {
      const res = await pin(t, ada.token, chatId, bad);
      expect(res.status, `${bad}: ${res.text}`).toBe(404);
      expect(res.body.detail).toBe(MESSAGE_TEXT.notFound);
      expect((await unpin(t, ada.token, chatId, bad)).status).toBe(404);
    }
    const message = await say(adaRoom, 'Pin me');
    expect((await pin(t, eve.token, chatId, message.id)).status).toBe(404);
    expect((await unpin(t, eve.token, chatId, message.id)).status).toBe(404);
    expect((await pinsOf(t, eve.token, chatId)).status).toBe(404);
    expect((await pinsOf(t, ada.token, 'no-such-chat')).status).toBe(404);
    expect((await t.request('PUT', `/api/chats/${chatId}/pins/${message.id}/`)).status).toBe(401);

    adaRoom.send({ type: 'chat_message', body: 'In the thread', client_id: 'th-1', thread_root: message.id });
    const reply = (await adaRoom.next('chat_message', (f) => f.client_id === 'th-1')).message;
    const notPinnable = await pin(t, ada.token, chatId, reply.id);
    expect(notPinnable.status).toBe(400);
    expect(notPinnable.body.detail).toBe(PIN_TEXT.notPinnable);

    await pin(t, grace.token, chatId, message.id);
    const line = (await history(t, ada.token, chatId)).find((m) => m.kind === 'system');
    expect((await pin(t, ada.token, chatId, line.id)).body.detail).toBe(PIN_TEXT.notPinnable);

    const gone = await say(adaRoom, 'Soon gone');
    expect((await t.del(`/api/chats/${chatId}/messages/${gone.id}/`, ada.token)).status).toBe(204);
    const deleted = await pin(t, grace.token, chatId, gone.id);
    expect(deleted.status).toBe(409);
    expect(deleted.body.detail).toBe(MESSAGE_TEXT.deleted);
    // Unpinning what is not pinned, deleted or not, is no error.
    expect((await unpin(t, grace.token, chatId, gone.id)).status).toBe(200);
    expect((await pinsOf(t, ada.token, chatId)).body.map((m: { id: number }) => m.id)).toEqual([message.id]);
  });
});

describe('pinning in a group', () => {
  it('lets the owner and admins pin; a member reads the pins but gets 403; an outsider 404', async () => {
    const t = app();
    const {
      chatId,
      people: [owner, member, admin],
    } = await groupOf(t, 'Team', 'Olga', 'Mia', 'Adam');
    const [outsider] = await people(t, 'Otto');
    const promoted = await t.request('PATCH', `/api/chats/${chatId}/members/${admin.user.id}/`, {
      token: owner.token,
      json: { role: 'admin' },
    });
    expect(promoted.status, promoted.text).toBe(200);
    const memberRoom = await joinRoom(t, member.token, chatId);
    const [first, second] = await seedMessages(t, member.user.id, chatId, ['one', 'two']);

    const refused = await pin(t, member.token, chatId, first);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(PIN_TEXT.onlyAdmins);
    expect((await pin(t, outsider.token, chatId, first)).status).toBe(404);
    expect((await pinsOf(t, outsider.token, chatId)).status).toBe(404);

    expect((await pin(t, owner.token, chatId, first)).status).toBe(200);
    expect((await memberRoom.next('pins_updated')).pinned_ids).toEqual([first]);
    const line = await memberRoom.next('chat_message', (f) => f.message.kind === 'system');
    expect(line.message.body).toBe(pinnedLine(fullName(owner)));
    expect((await pin(t, admin.token, chatId, second)).body.pinned_ids).toEqual([second, first]);

    expect((await unpin(t, member.token, chatId, second)).status).toBe(403);
    expect((await unpin(t, outsider.token, chatId, second)).status).toBe(404);
    const listed = await pinsOf(t, member.token, chatId);
    expect(listed.status).toBe(200);
    expect(listed.body.map((m: { body: string }) => m.body)).toEqual(['two', 'one']);
    expect((await unpin(t, admin.token, chatId, first)).body.pinned_ids).toEqual([second]);
  });

  it('shows a public group’s pins to someone previewing it, who may not pin (403)', async () => {
    const t = app();
    const [owner, visitor] = await people(t, 'Olga', 'Vic');
    const channel = await newChannel(t, owner.token, 'Open');
    const [message] = await seedMessages(t, owner.user.id, channel, ['Welcome']);
    expect((await pin(t, owner.token, channel, message)).status).toBe(200);
    const preview = await pinsOf(t, visitor.token, channel);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.map((m: { body: string }) => m.body)).toEqual(['Welcome']);
    expect((await pin(t, visitor.token, channel, message)).status).toBe(403);
    expect((await unpin(t, visitor.token, channel, message)).status).toBe(403);
  });

  it(`holds at most ${MAX_PINS_PER_CHAT} pins: past them a clear 400, a pin again still answers`, async () => {
    const t = app();
    const {
      chatId,
      people: [owner],
    } = await groupOf(t, 'Many', 'Olga');
    const bodies = Array.from({ length: MAX_PINS_PER_CHAT + 1 }, (_, i) => `m${i}`);
    const ids = await seedMessages(t, owner.user.id, chatId, bodies);
    for (const id of ids.slice(0, MAX_PINS_PER_CHAT))
      expect((await pin(t, owner.token, chatId, id)).status).toBe(200);
    const over = await pin(t, owner.token, chatId, ids[MAX_PINS_PER_CHAT]);
    expect(over.status).toBe(400);
    expect(over.body.detail).toBe(PIN_TEXT.tooMany);
    const again = await pin(t, owner.token, chatId, ids[3]);
    expect(again.status).toBe(200);
    expect(again.body.pinned_ids).toHaveLength(MAX_PINS_PER_CHAT);
    const listed = await pinsOf(t, owner.token, chatId);
    expect(listed.body).toHaveLength(MAX_PINS_PER_CHAT);
    expect(listed.body[0].body).toBe(`m${MAX_PINS_PER_CHAT - 1}`);
    expect((await unpin(t, owner.token, chatId, ids[0])).status).toBe(200);
    expect((await pin(t, owner.token, chatId, ids[MAX_PINS_PER_CHAT])).status).toBe(200);
  });

  it('keeps the limit when pins race: of many at once into the last places, only those that fit stay', async () => {
    const t = app();
    const {
      chatId,
      people: [owner],
    } = await groupOf(t, 'Racing', 'Olga');
    const ids = await seedMessages(
      t,
      owner.user.id,
      chatId,
      Array.from({ length: MAX_PINS_PER_CHAT + 8 }, (_, i) => `r${i}`),
    );
    for (const id of ids.slice(0, MAX_PINS_PER_CHAT - 2))
      expect((await pin(t, owner.token, chatId, id)).status).toBe(200);
    const raced = await Promise.all(
      ids.slice(MAX_PINS_PER_CHAT - 2).map((id) => pin(t, owner.token, chatId, id)),
    );
    expect(raced.filter((r) => r.status === 200)).toHaveLength(2);
    expect(raced.filter((r) => r.status === 400)).toHaveLength(8);
    expect((await pinsOf(t, owner.token, chatId)).body).toHaveLength(MAX_PINS_PER_CHAT);
  });
});
