import { webmOf } from '@parley/fixtures';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../helpers/server-process';
import type { SignedUp } from '../helpers/test-app';
import { startChatOn, twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';
import { uploadVoice } from './voice-helpers';

// A voice message played through one process tells its sender in a room on the other (the PostgreSQL + Redis
// pass only), and the mark is in the history either serves.
describe.skipIf(!twoProcessesEnabled)('voice_played across two processes', () => {
  const processes = useTwoProcesses();
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;
  let grace: SignedUp;
  const WAIT = 10_000;

  beforeAll(async () => {
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
  }, 60_000);

  it('Grace plays on B; Ada, in the room on A, hears voice_played', async () => {
    const chatId = await startChatOn(a, ada, grace);
    const adaRoom = (await a.joinRoom(ada.token, chatId, 'ada')).client;
    const up = await uploadVoice(a.baseUrl, ada.token, chatId, { bytes: webmOf() });
    expect(up.status, up.text).toBe(200);
    const fileId = up.body.files[0].id;
    adaRoom.send({ type: 'chat_message', client_id: 'a-voice', file_ids: [fileId] });
    const message = (await adaRoom.next('chat_message', (f) => f.client_id === 'a-voice', WAIT)).message;

    const res = await b.request('PUT', `/api/chats/${chatId}/messages/${message.id}/played/`, {
      token: grace.token,
    });
    expect(res.status, res.text).toBe(204);
    const frame = await adaRoom.next('voice_played', () => true, WAIT);
    expect(frame).toEqual({
      type: 'voice_played',
      message_id: message.id,
      file_id: fileId,
      user_id: grace.user.id,
    });
    const page = await a.get(`/api/chats/${chatId}/messages/`, ada.token);
    const stored = (page.body as { id: number; files: { played?: boolean }[] }[]).find(
      (m) => m.id === message.id,
    );
    expect(stored?.files[0]?.played).toBe(true);
    await adaRoom.close();
  });
});
