import { pdfOf, pngOf } from '@parley/fixtures';
import { describe, expect, it } from 'vitest';
import { myChats, newClientId, people, say, startChat } from '../chats/chat-helpers';
import type { Json, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { joinRoom, type WsClient } from '../helpers/ws-client';
import { uploadFiles } from './attachment-helpers';

// A chat whose last message is only files is previewed by its files, not as 'No messages yet'.
const app = useTestApp();

async function sendFiles(t: TestApp, room: WsClient, token: string, chatId: string, names: string[]) {
  const res = await uploadFiles(
    t,
    token,
    chatId,
    names.map((filename) => ({ bytes: filename.endsWith('.png') ? pngOf(8, 8) : pdfOf(filename), filename })),
  );
  expect(res.status, res.text).toBe(200);
  const clientId = newClientId('files');
  room.send({
    type: 'chat_message',
    body: '',
    client_id: clientId,
    file_ids: (res.body.files as Json[]).map((f) => f.id),
  });
  await room.next('chat_message', (f) => f.client_id === clientId);
}

describe('chat list: the last message’s files', () => {
  it('carries the count and the first file’s name; null for a text message', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    const room = await joinRoom(t, ada.token, chatId);

    await sendFiles(t, room, ada.token, chatId, ['photo.png']);
    let [chat] = await myChats(t, grace.token);
    expect(chat).toMatchObject({ last_message: '', last_message_files: { count: 1, name: 'photo.png' } });

    await sendFiles(t, room, ada.token, chatId, ['one.pdf', 'two.pdf']);
    [chat] = await myChats(t, grace.token);
    expect(chat.last_message_files).toEqual({ count: 2, name: 'one.pdf' });

    await say(room, 'words again');
    [chat] = await myChats(t, grace.token);
    expect(chat).toMatchObject({ last_message: 'words again', last_message_files: null });
    await room.close();
  });
});
