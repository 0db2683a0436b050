import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PreviewSite, startPreviewSite } from '../helpers/preview-site';
import type { ServerProcess } from '../helpers/server-process';
import type { SignedUp } from '../helpers/test-app';
import { startChatOn, twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';

// Link previews between two processes on one PostgreSQL and one Redis (the PostgreSQL + Redis pass only): the
// process that stored the message fetches the page, and the preview reaches the room's sockets on the other; a
// removal through the other process reaches the first.
describe.skipIf(!twoProcessesEnabled)('link previews across two processes', () => {
  const processes = useTwoProcesses({ PREVIEW_ALLOW_PRIVATE_HOSTS: 'true' });
  let site: PreviewSite;
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;
  let grace: SignedUp;
  const WAIT = 15_000;

  beforeAll(async () => {
    site = await startPreviewSite();
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
  }, 60_000);
  afterAll(() => site?.close());

  it('a preview fetched on A reaches B, and its removal on B reaches A', async () => {
    const chatId = await startChatOn(a, ada, grace);
    const adaRoom = (await a.joinRoom(ada.token, chatId, 'ada')).client;
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace')).client;
    adaRoom.send({ type: 'chat_message', body: `${site.origin}/article`, client_id: 'link-a' });
    const message = (await adaRoom.next('chat_message', (f) => f.client_id === 'link-a', WAIT)).message;
    const shown = await graceRoom.next(
      'message_updated',
      (f) => f.message.id === message.id && !!f.message.link_preview,
      WAIT,
    );
    expect(shown.message.link_preview.title).toBe('An article');
    const picture = await a.request('GET', shown.message.link_preview.image.url);
    expect(picture.status).toBe(200);

    const removed = await b.request('DELETE', `/api/chats/${chatId}/messages/${message.id}/preview/`, {
      token: ada.token,
    });
    expect(removed.status, removed.text).toBe(204);
    await adaRoom.next(
      'message_updated',
      (f) => f.message.id === message.id && !f.message.link_preview,
      WAIT,
    );
  });
});
