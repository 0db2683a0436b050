import { describe, expect, it } from 'vitest';
import { adaAndGraceInRoom, say } from '../chats/chat-helpers';
import { deleteGroup, groupOf } from '../groups/group-helpers';
import { useTestApp } from '../helpers/test-app';
import { joinRoom } from '../helpers/ws-client';
import { pin, pinRows, pinsOf } from './pin-helpers';

// What takes a pin away besides DELETE: the message deleted for everyone (the room hears pins_updated after
// message_deleted), the chat deleted, the account of whoever pinned it or sent it deleted.
const app = useTestApp();

describe('a pinned message deleted for everyone', () => {
  it('is unpinned, and the room hears pins_updated after message_deleted', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const kept = await say(adaRoom, 'Kept');
    const gone = await say(adaRoom, 'Gone');
    await pin(t, grace.token, chatId, kept.id);
    await pin(t, grace.token, chatId, gone.id);
    await graceRoom.next('pins_updated', (f) => f.pinned_ids.length === 2);

    expect((await t.del(`/api/chats/${chatId}/messages/${gone.id}/`, ada.token)).status).toBe(204);
    const updated = await graceRoom.next('pins_updated', (f) => f.pinned_ids.length === 1);
    expect(updated).toEqual({ type: 'pins_updated', chat_id: chatId, pinned_ids: [kept.id] });
    const order = graceRoom.frames.map((f) => f.type).filter((type) => type !== 'chat_message');
    expect(order.indexOf('message_deleted')).toBeLessThan(order.lastIndexOf('pins_updated'));
    expect((await pinsOf(t, ada.token, chatId)).body.map((m: { id: number }) => m.id)).toEqual([kept.id]);
    expect(await pinRows(t)).toEqual([kept.id]);
  });

  it('tells nothing when the deleted message was not pinned', async () => {
    const t = app();
    const { ada, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const gone = await say(adaRoom, 'Never pinned');
    await t.del(`/api/chats/${chatId}/messages/${gone.id}/`, ada.token);
    await graceRoom.next('message_deleted');
    await t.ctx.lifecycle.settled();
    await say(adaRoom, 'marker');
    await graceRoom.next('chat_message', (f) => f.message.body === 'marker');
    expect(graceRoom.received('pins_updated')).toEqual([]);
  });
});

describe('cascades', () => {
  it('a deleted group takes its pins with it', async () => {
    const t = app();
    const {
      chatId,
      people: [owner],
    } = await groupOf(t, 'Short-lived', 'Olga');
    const other = await groupOf(t, 'Stays', 'Sam');
    const room = await joinRoom(t, owner.token, chatId);
    const message = await say(room, 'Pinned');
    const otherRoom = await joinRoom(t, other.people[0].token, other.chatId);
    const kept = await say(otherRoom, 'Pinned elsewhere');
    await pin(t, owner.token, chatId, message.id);
    await pin(t, other.people[0].token, other.chatId, kept.id);
    expect((await deleteGroup(t, owner.token, chatId)).status).toBe(204);
    expect(await pinRows(t)).toEqual([kept.id]);
  });

  it('a deleted account takes the pins it made and the pins of its messages', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const byGrace = await say(graceRoom, 'Grace wrote this');
    const byAda = await say(adaRoom, 'Ada wrote this');
    const pinnedByAda = await say(adaRoom, 'Ada pinned this');
    await pin(t, ada.token, chatId, byGrace.id);
    await pin(t, grace.token, chatId, byAda.id);
    await pin(t, ada.token, chatId, pinnedByAda.id);
    const other = await adaAndGraceInRoom(t);
    const elsewhere = await say(other.adaRoom, 'Another pair');
    await pin(t, other.grace.token, other.chatId, elsewhere.id);

    expect((await t.deleteAccount(ada.token)).status).toBe(204);
    // Ada's own messages go with her; so does the pin she made of Grace's message.
    expect(await pinRows(t)).toEqual([elsewhere.id]);
    expect((await pinsOf(t, grace.token, chatId)).body).toEqual([]);
    // The room that showed them is told they are gone; the other chat's pin stays untold.
    const told = await graceRoom.next('pins_updated', (f) => f.pinned_ids.length === 0);
    expect(told.chat_id).toBe(chatId);
    expect(other.graceRoom.frames.filter((f) => f.type === 'pins_updated')).toHaveLength(1);
  });
});
