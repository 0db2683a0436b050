import { describe, expect, it } from 'vitest';
import { history } from '../chats/chat-helpers';
import { useTestApp } from '../helpers/test-app';
import { joinRoom } from '../helpers/ws-client';
import {
  closeAll,
  deleteMessage,
  editMessage,
  expectStatus,
  pairInRoom,
  react,
  send,
} from './essentials-helpers';

// A client that was away while a message was edited, another deleted and a third reacted to finds all
// three in the history it fetches when it comes back.
const app = useTestApp();

describe('catching up after a reconnect', () => {
  it('shows edits, deletions and reactions made while the client was away', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom } = await pairInRoom(t);
    const edited = await send(adaRoom, 'typo hree');
    const deleted = await send(adaRoom, 'said too much');
    const liked = await send(adaRoom, 'good news');
    await graceRoom.next('chat_message', (f) => f.message.id === liked.id);
    const before = await history(t, grace.token, chatId);
    await graceRoom.close();
    await adaRoom.next('in_chat_count', (f) => f.count === 1);

    const edit = expectStatus(await editMessage(t, ada.token, chatId, edited.id, 'typo here'), 200).body;
    expectStatus(await deleteMessage(t, ada.token, chatId, deleted.id), 204);
    expectStatus(await react(t, ada.token, chatId, liked.id, '🎉'), 200);

    // Grace comes back: a new socket, then the page she had loaded fetched again.
    const again = await joinRoom(t, grace.token, chatId);
    const after = await history(t, grace.token, chatId);
    expect(after.map((m) => m.id)).toEqual(before.map((m) => m.id));
    const byId = new Map(after.map((m) => [m.id, m]));
    expect(byId.get(edited.id)).toMatchObject({ body: 'typo here', edited_at: edit.edited_at });
    expect(byId.get(deleted.id)).toMatchObject({ body: '', is_deleted: true, files: [] });
    expect(byId.get(liked.id)?.reactions).toEqual([
      { emoji: '🎉', count: 1, me: false, user_ids: [ada.user.id] },
    ]);
    // What she had before showed none of it.
    const old = new Map(before.map((m) => [m.id, m]));
    expect([old.get(edited.id)?.body, old.get(deleted.id)?.is_deleted, old.get(liked.id)?.reactions]).toEqual(
      ['typo hree', false, []],
    );
    await closeAll([adaRoom, again]);
  });
});
