import { SAFETY_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import * as notificationsRepo from '../../src/modules/notifications/notifications.repo';
import { addMember, createGroup, detail, myChats, people, startChat } from '../chats/chat-helpers';
import { pathOf, usePushService } from '../helpers/push-endpoint';
import type { SignedUp, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { openNotifications } from '../helpers/ws-client';

// Muting a chat: the calls as the person, someone else and an outsider; and each notification path
// — the notification socket's new_message (still sent, marked muted, so lists and ticks follow but no browser
// notification is raised), the unread total, Web Push and the missed-message mail — with a mention that still
// notifies. "Nothing" is never shown by waiting: a control message that is notified settles it.
const DELAY_MS = 300;
const app = useTestApp({
  env: { PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' },
  config: { emailNotifyDelayMs: DELAY_MS },
});
const push = usePushService();

const HOUR = 60 * 60 * 1000;
const mute = (t: TestApp, who: SignedUp, chatId: string, until: string | null | unknown) =>
  t.put(`/api/chats/${chatId}/mute/`, { until }, who.token);
const send = async (t: TestApp, from: SignedUp, chatId: string, body: string) =>
  (await t.ctx.messages.send(from.user.id, chatId, { body })).message;

describe('PUT/DELETE /api/chats/{chat_id}/mute/', () => {
  it('mutes until a time or always for the member only; the list and the detail carry it', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const chatId = await startChat(t, ada.token, grace.user.username);

    const until = new Date(Date.now() + 8 * HOUR).toISOString();
    const res = await mute(t, ada, chatId, until);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ muted: true, muted_until: until });
    expect((await myChats(t, ada.token))[0]).toMatchObject({ muted: true, muted_until: until });
    expect(await detail(t, ada.token, chatId)).toMatchObject({ muted: true, muted_until: until });
    // Grace's side is untouched.
    expect((await myChats(t, grace.token))[0]).toMatchObject({ muted: false, muted_until: null });

    // Always: muted with no end.
    expect((await mute(t, ada, chatId, null)).body).toEqual({ muted: true, muted_until: null });
    expect(await detail(t, ada.token, chatId)).toMatchObject({ muted: true, muted_until: null });

    // An offset time is kept as the same instant in UTC.
    const offset = new Date(Date.now() + HOUR);
    const local = `${offset.toISOString().slice(0, 19)}+00:00`;
    expect((await mute(t, ada, chatId, local)).body.muted_until).toBe(
      `${offset.toISOString().slice(0, 19)}.000Z`,
    );

    const off = await t.del(`/api/chats/${chatId}/mute/`, ada.token);
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ muted: false, muted_until: null });
    expect(await detail(t, ada.token, chatId)).toMatchObject({ muted: false, muted_until: null });

    // Someone else (not a member) and outsiders learn nothing.
    expect((await mute(t, alan, chatId, null)).status).toBe(404);
    expect((await t.del(`/api/chats/${chatId}/mute/`, alan.token)).status).toBe(404);
    expect((await t.put(`/api/chats/${chatId}/mute/`, { until: null })).status).toBe(401);
    expect((await t.del(`/api/chats/${chatId}/mute/`)).status).toBe(401);
    expect((await mute(t, ada, 'no-such-chat', null)).status).toBe(404);
  });

  it('refuses a time that is not a date, is past, or is missing, with the field named', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    for (const until of ['tomorrow', 42, undefined]) {
      const res = await t.put(`/api/chats/${chatId}/mute/`, until === undefined ? {} : { until }, ada.token);
      expect(res.status, String(until)).toBe(400);
      expect(res.body.until).toHaveLength(1);
    }
    const past = await mute(t, ada, chatId, new Date(Date.now() - 1000).toISOString());
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ until: [SAFETY_TEXT.muteInPast] });
    expect(await detail(t, ada.token, chatId)).toMatchObject({ muted: false });
  });

  it('ends by itself when its time has passed', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    expect((await mute(t, ada, chatId, new Date(Date.now() + 300).toISOString())).status).toBe(200);
    expect((await detail(t, ada.token, chatId)).muted).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(await detail(t, ada.token, chatId)).toMatchObject({ muted: false, muted_until: null });
  });
});

describe('a muted chat notifies nobody who muted it, except when they are mentioned', () => {
  it('marks new_message muted, leaves it out of the unread total, and pushes nothing', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const mutedGroup = await createGroup(t, grace.token, 'Noisy');
    const otherGroup = await createGroup(t, grace.token, 'Quiet');
    await addMember(t, mutedGroup, ada.user.id);
    await addMember(t, otherGroup, ada.user.id);
    const adaPush = pathOf(await push.subscribe(t, ada));
    const notes = (await openNotifications(t, ada.token)).client;
    expect((await mute(t, ada, mutedGroup, null)).status).toBe(200);

    // In the muted chat: the notice arrives (lists and delivery ticks follow) marked muted; the count stays 0.
    const quiet = await send(t, grace, mutedGroup, 'chatter');
    const notice = await notes.next('new_message', (f) => f.message.message_id === quiet.id);
    expect(notice.message).toMatchObject({ chatroom_id: mutedGroup, muted: true });
    expect(notice.message.mention).toBeUndefined();
    expect(await notes.next('notification_count')).toEqual({ type: 'notification_count', count: 0 });
    // The chat itself still counts its unread messages, shown grey by the client.
    expect((await myChats(t, ada.token)).find((c) => c.chat_id === mutedGroup)).toMatchObject({
      unread_count: 1,
      muted: true,
    });

    // In another chat: a plain notice, counted, and pushed — the control that settles "nothing was pushed".
    const loud = await send(t, grace, otherGroup, 'news');
    const plain = await notes.next('new_message', (f) => f.message.message_id === loud.id);
    expect(plain.message.muted).toBeUndefined();
    expect(await notes.next('notification_count')).toEqual({ type: 'notification_count', count: 1 });
    await push.waitFor(adaPush, 1);
    expect(push.to(adaPush)).toHaveLength(1);

    // A mention in the muted chat notifies: flagged as a mention, counted, and pushed.
    const mention = await send(t, grace, mutedGroup, `@${ada.user.username} look`);
    const flagged = await notes.next('new_message', (f) => f.message.message_id === mention.id);
    expect(flagged.message).toMatchObject({ mention: true, muted: true });
    expect(await notes.next('notification_count')).toEqual({ type: 'notification_count', count: 2 });
    await push.waitFor(adaPush, 2);
    expect(push.to(adaPush)).toHaveLength(2);

    // Unmuting counts the chat's unread messages in the total again.
    expect((await t.del(`/api/chats/${mutedGroup}/mute/`, ada.token)).status).toBe(200);
    expect(await notes.next('notification_count')).toEqual({ type: 'notification_count', count: 3 });
    const reconnect = await openNotifications(t, ada.token);
    expect(reconnect.count).toBe(3);
    await Promise.all([notes.close(), reconnect.client.close()]);
  });

  it('plans no missed-message mail for a muted chat, and mails for a mention there', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    for (const p of [ada, alan])
      expect(
        (await t.put('/api/users/profile/settings/', { email_notification: true }, p.token)).status,
      ).toBe(200);
    const groupId = await createGroup(t, grace.token, 'Noisy');
    await addMember(t, groupId, ada.user.id);
    await addMember(t, groupId, alan.user.id);
    await mute(t, ada, groupId, null);

    // Alan (not muted) is planned a mail by the same message; Ada is not.
    await send(t, grace, groupId, 'chatter');
    await t.mail.waitFor(alan.payload.email, { subject: /unread message/, timeoutMs: 5000 });
    expect(await notificationsRepo.pendingDigests(t.ctx.db, [ada.user.id])).toEqual([]);
    expect(t.mail.to(ada.payload.email, /unread message/)).toHaveLength(0);

    // A mention of Ada there mails her, naming the chat with the mention.
    await send(t, grace, groupId, `@${ada.user.username} your turn`);
    const mail = await t.mail.waitFor(ada.payload.email, { subject: /mentioned/, timeoutMs: 5000 });
    expect(mail.text).toContain('Noisy: 2 unread messages (you were mentioned)');
  });

  it('leaves a muted chat out of the mail that lists other unread chats', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    expect(
      (await t.put('/api/users/profile/settings/', { email_notification: true }, ada.token)).status,
    ).toBe(200);
    const mutedGroup = await createGroup(t, grace.token, 'Noisy');
    const otherGroup = await createGroup(t, grace.token, 'Quiet');
    await addMember(t, mutedGroup, ada.user.id);
    await addMember(t, otherGroup, ada.user.id);
    await mute(t, ada, mutedGroup, new Date(Date.now() + HOUR).toISOString());
    await send(t, grace, mutedGroup, 'chatter');
    await send(t, grace, otherGroup, 'news');
    const mail = await t.mail.waitFor(ada.payload.email, { subject: /unread message/, timeoutMs: 5000 });
    expect(mail.subject).toBe('You have 1 unread message on Parley');
    expect(mail.text).toContain('Quiet: 1 unread message');
    expect(mail.text).not.toContain('Noisy');
  });
});
