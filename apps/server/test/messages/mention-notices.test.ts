import { describe, expect, it } from 'vitest';
import { addMember, createGroup, fullName, people, startChat } from '../chats/chat-helpers';
import { type FakeBrowser, pathOf, usePushService } from '../helpers/push-endpoint';
import { type SignedUp, type TestApp, useTestApp } from '../helpers/test-app';

// A mentioned person is told so beyond the room: in the Web Push title (decrypted from a local push
// service) and in the batched missed-message mail (the delay shortened from ten minutes, caught by the real
// SMTP sink).
const DELAY_MS = 300;
const BASE = 'http://parley.test';
const app = useTestApp({
  config: { emailNotifyDelayMs: DELAY_MS, publicUrl: BASE, pushAllowPrivateEndpoints: true },
});
const DIGEST = /unread message/;

const push = usePushService();

/** The next push to this browser, decrypted. */
const nextPush = async (browser: FakeBrowser) =>
  JSON.parse(browser.decrypt((await push.waitFor(pathOf(browser))).body));

const mailOn = async (t: TestApp, p: SignedUp) =>
  expect((await t.put('/api/users/profile/settings/', { email_notification: true }, p.token)).status).toBe(
    200,
  );

describe('mentions beyond the room', () => {
  it('titles the push to a mentioned person "… mentioned you"; the others get the usual title', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const groupId = await createGroup(t, ada.token, 'Engines');
    for (const p of [grace, alan]) await addMember(t, groupId, p.user.id);
    const [graceBrowser, alanBrowser] = [await push.subscribe(t, grace), await push.subscribe(t, alan)];

    await t.ctx.messages.send(ada.user.id, groupId, { body: `Over to you, @${grace.user.username}` });
    const [toGrace, toAlan] = await Promise.all([nextPush(graceBrowser), nextPush(alanBrowser)]);
    expect(toGrace).toMatchObject({ title: `${fullName(ada)} mentioned you`, chatroom_id: groupId });
    expect(toAlan).toMatchObject({ title: fullName(ada), chatroom_id: groupId });
    expect(toGrace.body).toBe(toAlan.body);
  });

  it('names the chats where an unread message mentions the person; others get the plain mail', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    for (const p of [grace, alan]) await mailOn(t, p);
    const groupId = await createGroup(t, ada.token, 'Engines');
    for (const p of [grace, alan]) await addMember(t, groupId, p.user.id);
    const privateId = await startChat(t, ada.token, grace.user.id);

    await t.ctx.messages.send(ada.user.id, groupId, { body: `@${grace.user.username} the gears, please` });
    await t.ctx.messages.send(ada.user.id, privateId, { body: 'And a word in private' });

    const wait = { subject: DIGEST, timeoutMs: 5000 + DELAY_MS };
    const toGrace = await t.mail.waitFor(grace.payload.email, wait);
    expect(toGrace.subject).toBe('You were mentioned: You have 2 unread messages on Parley');
    expect(toGrace.text).toContain(
      `- Engines: 1 unread message (you were mentioned)\n  ${BASE}/groups/${groupId}`,
    );
    expect(toGrace.text).toContain(`- ${fullName(ada)}: 1 unread message\n  ${BASE}/chats/${privateId}`);

    const toAlan = await t.mail.waitFor(alan.payload.email, wait);
    expect(toAlan.subject).toBe('You have 1 unread message on Parley');
    expect(toAlan.text).toContain(`- Engines: 1 unread message\n  ${BASE}/groups/${groupId}`);
    expect(toAlan.text).not.toContain('mentioned');
  });
});
