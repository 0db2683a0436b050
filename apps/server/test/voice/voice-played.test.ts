import { webmOf } from '@parley/fixtures';
import { VOICE_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { addMember, createGroup, history, newClientId, people, say, startChat } from '../chats/chat-helpers';
import type { SignedUp, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { joinRoom, type WsClient } from '../helpers/ws-client';
import { uploadVoice } from './voice-helpers';

// PUT /api/chats/{chat_id}/messages/{message_id}/played/: the person a private chat's voice message was sent to
// played it. Its sender's room hears `voice_played`, history keeps `played`; only the recipient, only in
// private chats, once.
const app = useTestApp();

/** Uploads a voice message as `from` and sends it on `room`; the stored message. */
async function sendVoice(t: TestApp, from: SignedUp, chatId: string, room: WsClient) {
  const up = await uploadVoice(t.baseUrl, from.token, chatId, { bytes: webmOf() });
  expect(up.status, up.text).toBe(200);
  const clientId = newClientId('v');
  room.send({ type: 'chat_message', client_id: clientId, file_ids: [up.body.files[0].id] });
  return (await room.next('chat_message', (f) => f.client_id === clientId)).message;
}

const played = (t: TestApp, token: string, chatId: string, messageId: number) =>
  t.put(`/api/chats/${chatId}/messages/${messageId}/played/`, undefined, token);

describe('a voice message played', () => {
  it('tells the sender once, and history shows it played to both', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const message = await sendVoice(t, ada, chatId, adaRoom);
    const fileId = message.files[0].id;

    const first = await played(t, grace.token, chatId, message.id);
    expect(first.status, first.text).toBe(204);
    const frame = await adaRoom.next('voice_played');
    expect(frame).toEqual({
      type: 'voice_played',
      message_id: message.id,
      file_id: fileId,
      user_id: grace.user.id,
    });
    expect((await played(t, grace.token, chatId, message.id)).status).toBe(204);
    for (const reader of [ada, grace]) {
      const stored = (await history(t, reader.token, chatId)).find((m) => m.id === message.id);
      expect(stored?.files[0]).toMatchObject({ kind: 'voice', played: true });
    }
    // A second call published nothing: a text sent after it is the next frame Ada's room gets.
    const after = await say(adaRoom, 'after');
    expect(adaRoom.frames.filter((f) => f.type === 'voice_played')).toHaveLength(1);
    expect(after.body).toBe('after');
    await adaRoom.close();
  });

  it('refuses the sender, a message without one, a group, and outsiders learn nothing (404)', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const voice = await sendVoice(t, ada, chatId, adaRoom);
    const text = await say(adaRoom, 'just words');

    const own = await played(t, ada.token, chatId, voice.id);
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ detail: VOICE_TEXT.onlyRecipient });
    const plain = await played(t, grace.token, chatId, text.id);
    expect(plain.status).toBe(400);
    expect(plain.body).toEqual({ detail: VOICE_TEXT.notVoice });
    expect((await played(t, alan.token, chatId, voice.id)).status).toBe(404);
    expect((await played(t, grace.token, chatId, 2_000_000_000)).status).toBe(404);

    const group = await createGroup(t, ada.token, 'Voices');
    await addMember(t, group, grace.user.id);
    const groupRoom = await joinRoom(t, ada.token, group);
    const inGroup = await sendVoice(t, ada, group, groupRoom);
    const refused = await played(t, grace.token, group, inGroup.id);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ detail: VOICE_TEXT.onlyPrivate });
    const stored = (await history(t, ada.token, chatId)).find((m) => m.id === voice.id);
    expect(stored?.files[0].played).toBe(false);
    await Promise.all([adaRoom.close(), groupRoom.close()]);
  });

  it('is not told by someone who hides read receipts', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    expect((await t.put('/api/users/profile/settings/', { read_receipt: false }, grace.token)).status).toBe(
      200,
    );
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const voice = await sendVoice(t, ada, chatId, adaRoom);
    expect((await played(t, grace.token, chatId, voice.id)).status).toBe(204);
    await say(adaRoom, 'after');
    expect(adaRoom.frames.some((f) => f.type === 'voice_played')).toBe(false);
    const stored = (await history(t, ada.token, chatId)).find((m) => m.id === voice.id);
    expect(stored?.files[0].played).toBe(false);
    await adaRoom.close();
  });
});
