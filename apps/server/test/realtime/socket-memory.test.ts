import type { IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { people, startChat } from '../chats/chat-helpers';
import { startTestApp } from '../helpers/test-app';
import { joinRoom, openNotifications } from '../helpers/ws-client';

// What an open socket keeps (100,000 idle sockets on one process at ≤ 8 KiB each). Once a socket is
// authenticated, its upgrade request — the headers, Fastify's request and reply, the upgrade's ServerResponse —
// must be free to go: only ws's objects, the connection and a small Client stay. Checked with weak references
// to the upgrade requests and a full garbage collection.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects until nothing more goes (a few rounds, with turns of the event loop between them). */
async function collect() {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('an open socket', () => {
  it('lets go of its upgrade request once it is authenticated, in a room and on the notification channel', async () => {
    const t = await startTestApp();
    try {
      const [ada, grace] = await people(t, 'Ada', 'Grace');
      const chatId = await startChat(t, ada.token, grace.user.id);
      const upgrades: WeakRef<IncomingMessage>[] = [];
      const track = (req: IncomingMessage) => upgrades.push(new WeakRef(req));
      t.server.app.server.on('upgrade', track);
      const room = await joinRoom(t, ada.token, chatId);
      const { client: bell } = await openNotifications(t, grace.token);
      t.server.app.server.off('upgrade', track);
      expect(upgrades).toHaveLength(2);

      await collect();
      expect(upgrades.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
      // Still open and working: a message reaches the room.
      room.send({ type: 'chat_message', body: 'still here', client_id: 'c-1' });
      expect((await room.next('chat_message')).message.body).toBe('still here');
      await room.close();
      await bell.close();
    } finally {
      await t.close();
    }
  });
});
