import { describe, expect, it, vi } from 'vitest';
import { people, startChat } from '../chats/chat-helpers';
import { FakeBrowser, startPushEndpoint } from '../helpers/push-endpoint';
import { useTestApp } from '../helpers/test-app';
import { eventually } from '../helpers/ws-client';

// Web Push addresses: the server POSTs to what a browser registers, so an address that is, or
// resolves to, loopback, private, link-local or metadata space is refused at subscription, and checked again
// as the server connects. In every mode: this app has no PUSH_ALLOW_PRIVATE_ENDPOINTS.
const app = useTestApp();

describe('push subscription addresses', () => {
  it('refuses loopback, private, link-local and metadata hosts, names resolving to them, and plain http', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    for (const endpoint of [
      'https://localhost/push/1',
      'https://localhost./push/1',
      'https://127.0.0.1/push/1',
      'https://127.0.0.1.nip.io/push/1',
      'https://[::1]/push/1',
      'https://[::ffff:127.0.0.1]/push/1',
      'https://10.0.0.8/push/1',
      'https://192.168.1.1/push/1',
      'https://169.254.169.254/latest/meta-data',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://unknown-host.invalid/push/1',
      'http://push.example.com/push/1',
    ]) {
      const res = await t.post('/api/push/subscriptions/', new FakeBrowser(endpoint).subscription, ada.token);
      expect(res.status, endpoint).toBe(400);
      expect(res.body, endpoint).toEqual({ endpoint: ['This is not a push service address.'] });
    }
  });

  it('are checked again when a notification is sent: a stored address that now reaches loopback gets nothing', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    const push = await startPushEndpoint();
    try {
      // As if the name had resolved publicly at subscription and points at this machine now (DNS rebinding).
      const endpoint = push.url('/push/rebound').replace('127.0.0.1', 'localhost');
      const browser = new FakeBrowser(endpoint);
      const session = await t.ctx.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', grace.user.id)
        .executeTakeFirstOrThrow();
      await t.ctx.db
        .insertInto('push_subscriptions')
        .values({
          user_id: grace.user.id,
          session_id: session.id,
          endpoint,
          ...browser.subscription.keys,
          created_at: new Date().toISOString(),
        })
        .execute();
      const warn = vi.spyOn(t.ctx.log, 'warn');
      await t.ctx.messages.send(ada.user.id, chatId, { body: 'hello' });
      await eventually(
        async () =>
          warn.mock.calls.some(([fields]) => (fields as { code?: string }).code === 'ENONPUBLIC')
            ? true
            : undefined,
        'the delivery refused for its address',
      );
      expect(push.requests).toEqual([]);
    } finally {
      await push.close();
    }
  });
});
