import { describe, expect, it } from 'vitest';
import { addMember, createGroup, people } from '../chats/chat-helpers';
import { type FakeBrowser, pathOf, usePushService } from '../helpers/push-endpoint';
import { type SignedUp, type TestApp, useTestApp } from '../helpers/test-app';

// A reply sent only to a thread reaches beyond the room only the thread's followers: a Web Push (decrypted from
// a local push service) and the missed-message mail (caught by the real SMTP sink), which counts it apart.
const DELAY_MS = 300;
const BASE = 'http://parley.test';
const app = useTestApp({
  config: { emailNotifyDelayMs: DELAY_MS, publicUrl: BASE, pushAllowPrivateEndpoints: true },
});
const push = usePushService();

/** The `count`th push to this browser (counted from the first), decrypted. */
const pushNo = async (browser: FakeBrowser, count: number) =>
  JSON.parse(browser.decrypt((await push.waitFor(pathOf(browser), count)).body));

const mailOn = async (t: TestApp, p: SignedUp) =>
  expect((await t.put('/api/users/profile/settings/', { email_notification: true }, p.token)).status).toBe(
    200,
  );

describe('thread replies beyond the room', () => {
  it('push to the thread’s followers only', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const groupId = await createGroup(t, ada.token, 'Engines');
    for (const p of [grace, alan]) await addMember(t, groupId, p.user.id);
    const [adaBrowser, alanBrowser] = [await push.subscribe(t, ada), await push.subscribe(t, alan)];
    const root = await t.ctx.messages.send(ada.user.id, groupId, { body: 'Gears?' });
    expect((await pushNo(alanBrowser, 1)).body).toBe('Gears?');

    await t.ctx.messages.send(grace.user.id, groupId, { body: 'Oiled', thread_root: root.message.id });
    await t.ctx.messages.send(grace.user.id, groupId, {
      body: 'For all',
      thread_root: root.message.id,
      also_in_chat: true,
    });
    // Ada wrote the root: both replies reach her. Alan follows nothing: only the one also sent to the chat.
    const toAda = await pushNo(adaBrowser, 1);
    expect(toAda.body).toBe('Oiled');
    expect(toAda.url).toBe(`/groups/${groupId}/thread/${root.message.id}`);
    expect((await pushNo(adaBrowser, 2)).body).toBe('For all');
    expect((await pushNo(alanBrowser, 2)).body).toBe('For all');
  });

  it('mails a follower the unread replies of the thread, and not the others', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    for (const p of [ada, alan]) await mailOn(t, p);
    const groupId = await createGroup(t, ada.token, 'Engines');
    for (const p of [grace, alan]) await addMember(t, groupId, p.user.id);
    const root = await t.ctx.messages.send(ada.user.id, groupId, { body: 'Gears?' });
    await t.ctx.messages.send(grace.user.id, groupId, { body: 'Oiled', thread_root: root.message.id });

    const toAda = await t.mail.waitFor(ada.payload.email, { subject: /unread/, timeoutMs: 5000 + DELAY_MS });
    expect(toAda.subject).toBe('You have 1 unread message on Parley');
    expect(toAda.text).toContain(`- Engines: 1 unread reply in threads\n  ${BASE}/groups/${groupId}`);
    // Alan's mail (for Ada's root) says nothing of the thread he does not follow.
    const toAlan = await t.mail.waitFor(alan.payload.email, {
      subject: /unread/,
      timeoutMs: 5000 + DELAY_MS,
    });
    expect(toAlan.text).toContain('- Engines: 1 unread message\n');
    expect(toAlan.text).not.toContain('repl');
  });
});
