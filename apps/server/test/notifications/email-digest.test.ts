import { describe, expect, it } from 'vitest';
import * as repo from '../../src/modules/notifications/notifications.repo';
import { addMember, createGroup, fullName, people, startChat } from '../chats/chat-helpers';
import type { SignedUp, TestApp } from '../helpers/test-app';
import { startTestApp, useTestApp } from '../helpers/test-app';
import { eventually, joinRoom, openNotifications } from '../helpers/ws-client';

// The missed-message mail, caught by the real SMTP sink, with the delay shortened from 10 minutes.
// "No mail" is never shown by waiting a fixed time: a control recipient who does get a mail from the same
// poll settles it, and the pending-digest table shows what is still planned.

const DELAY_MS = 500;
const BASE = 'http://parley.test';
const app = useTestApp({ config: { emailNotifyDelayMs: DELAY_MS, publicUrl: BASE } });

const DIGEST = /unread message/;

const setEmail = async (t: TestApp, person: SignedUp, on: boolean) =>
  expect((await t.put('/api/users/profile/settings/', { email_notification: on }, person.token)).status).toBe(
    200,
  );

const pendingFor = async (t: TestApp, person: SignedUp) =>
  (await repo.pendingDigests(t.ctx.db, [person.user.id]))[0];

const send = async (t: TestApp, from: SignedUp, chatId: string, body: string) =>
  (await t.ctx.messages.send(from.user.id, chatId, { body })).message;

/** Waits for the digest to `person`, then for the poll that sent it to finish. */
async function digestFor(t: TestApp, person: SignedUp) {
  const mail = await t.mail.waitFor(person.payload.email, { subject: DIGEST, timeoutMs: 5000 + DELAY_MS });
  await t.ctx.emailDigests.runDue();
  return mail;
}

describe('missed-message mail', () => {
  it('sends one mail for several messages, listing each unread chat with its link', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    await setEmail(t, ada, true);
    await setEmail(t, grace, true);
    const privateId = await startChat(t, ada.token, grace.user.id);
    const groupId = await createGroup(t, ada.token, 'Engines');
    await addMember(t, groupId, grace.user.id);

    const sentAt = Date.now();
    await send(t, ada, privateId, 'First');
    await send(t, ada, privateId, 'Second');
    await send(t, ada, groupId, 'To the group');
    await eventually(async () => pendingFor(t, grace), 'a digest planned for Grace');

    const mail = await digestFor(t, grace);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(DELAY_MS - 50);
    expect(mail.subject).toBe('You have 3 unread messages on Parley');
    expect(mail.text).toContain(`- ${fullName(ada)}: 2 unread messages\n  ${BASE}/chats/${privateId}`);
    expect(mail.text).toContain(`- Engines: 1 unread message\n  ${BASE}/groups/${groupId}`);
    expect(mail.text).toContain(`${BASE}/settings`);

    // Nothing else is planned for Grace, so no second mail can follow; Ada wrote and gets none.
    expect(await pendingFor(t, grace)).toBeUndefined();
    expect(t.mail.to(grace.payload.email, DIGEST)).toHaveLength(1);
    expect(t.mail.to(ada.payload.email, DIGEST)).toHaveLength(0);
    expect(await pendingFor(t, ada)).toBeUndefined();

    // A message after the mail starts a new window.
    await send(t, ada, privateId, 'Third');
    const second = await t.mail.waitFor(grace.payload.email, { subject: DIGEST, count: 2, timeoutMs: 5000 });
    expect(second.subject).toBe('You have 4 unread messages on Parley');
  });

  it('sends nothing to someone with the switch off, or who turns it off before the mail is due', async () => {
    const t = app();
    const [ada, grace, alan, linus] = await people(t, 'Ada', 'Grace', 'Alan', 'Linus');
    const groupId = await createGroup(t, ada.token, 'Engines');
    for (const p of [grace, alan, linus]) await addMember(t, groupId, p.user.id);
    // Grace keeps the default (off); Alan turns it on, then off again once the mail is planned.
    await setEmail(t, alan, true);
    await setEmail(t, linus, true);

    await send(t, ada, groupId, 'Hello all');
    await eventually(async () => pendingFor(t, alan), 'a digest planned for Alan');
    expect(await pendingFor(t, grace)).toBeUndefined();
    await setEmail(t, alan, false);

    // Linus's mail comes from the same poll as Alan's would have.
    await digestFor(t, linus);
    expect(await pendingFor(t, alan)).toBeUndefined();
    expect(t.mail.to(alan.payload.email, DIGEST)).toHaveLength(0);
    expect(t.mail.to(grace.payload.email, DIGEST)).toHaveLength(0);
  });

  it('is cancelled when the messages are read in time', async () => {
    // A longer delay than the others: the cancellation must be seen well before the mail would be due.
    const t = await startTestApp({ config: { emailNotifyDelayMs: 4000, publicUrl: BASE } });
    try {
      const [ada, grace] = await people(t, 'Ada', 'Grace');
      const groupId = await createGroup(t, ada.token, 'Engines');
      await addMember(t, groupId, grace.user.id);
      await setEmail(t, grace, true);

      const ids = [(await send(t, ada, groupId, 'One')).id, (await send(t, ada, groupId, 'Two')).id];
      const planned = await eventually(async () => pendingFor(t, grace), 'a digest planned for Grace');

      // Grace comes back, opens the room and reads both: the planned mail is dropped at once.
      const room = await joinRoom(t, grace.token, groupId);
      room.send({ type: 'read_messages', message_ids: ids });
      await eventually(
        async () => ((await pendingFor(t, grace)) ? undefined : true),
        'Grace’s digest to be cancelled',
      );
      expect(Date.now()).toBeLessThan(Date.parse(planned.due_at));
      await room.close();
      await t.ctx.emailDigests.runDue();
      expect(t.mail.to(grace.payload.email, DIGEST)).toHaveLength(0);
      expect(await t.ctx.messages.totalUnread(grace.user.id)).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('is not sent when the messages are read through the service before the delay, whatever is left planned', async () => {
    const t = app();
    const [ada, grace, linus] = await people(t, 'Ada', 'Grace', 'Linus');
    const chatId = await startChat(t, ada.token, grace.user.id);
    const controlId = await startChat(t, ada.token, linus.user.id);
    await setEmail(t, grace, true);
    await setEmail(t, linus, true);

    const message = await send(t, ada, chatId, 'Read me');
    await send(t, ada, controlId, 'Control');
    await t.ctx.messages.markRead(grace.user.id, chatId, [message.id]);
    await t.ctx.messages.receiptsSettled();

    await digestFor(t, linus);
    expect(t.mail.to(grace.payload.email, DIGEST)).toHaveLength(0);
  });

  it('is not planned for someone online when the message arrives', async () => {
    const t = app();
    const [ada, grace, linus] = await people(t, 'Ada', 'Grace', 'Linus');
    const groupId = await createGroup(t, ada.token, 'Engines');
    for (const p of [grace, linus]) await addMember(t, groupId, p.user.id);
    await setEmail(t, grace, true);
    await setEmail(t, linus, true);
    const { client } = await openNotifications(t, grace.token);

    await send(t, ada, groupId, 'You are here');
    await digestFor(t, linus);
    expect(await pendingFor(t, grace)).toBeUndefined();
    expect(t.mail.to(grace.payload.email, DIGEST)).toHaveLength(0);
    await client.close();
  });

  it('is not planned for anyone in the chat’s room, with no look-up of who is online when all are there', async () => {
    const t = app();
    const [ada, grace, linus] = await people(t, 'Ada', 'Grace', 'Linus');
    const groupId = await createGroup(t, ada.token, 'Looms');
    for (const p of [grace, linus]) await addMember(t, groupId, p.user.id);
    for (const p of [grace, linus]) await setEmail(t, p, true);
    // Grace has only the chat's room open: she is in the room, so online.
    const graceRoom = await joinRoom(t, grace.token, groupId);
    const lookups: number[][] = [];
    const onlineAmong = t.ctx.presence.onlineAmong.bind(t.ctx.presence);
    t.ctx.presence.onlineAmong = (ids, options) => {
      lookups.push([...ids]);
      return onlineAmong(ids, options);
    };

    await send(t, ada, groupId, 'Linus is away');
    await eventually(() => pendingFor(t, linus), 'the mail planned for Linus');
    // Only Linus, away from the room, was looked up (the mail itself, composed later, looks up its chat list).
    expect(lookups).toEqual([[linus.user.id]]);
    await digestFor(t, linus);
    expect(await pendingFor(t, grace)).toBeUndefined();
    expect(t.mail.to(grace.payload.email, DIGEST)).toHaveLength(0);

    // With Linus in the room too, nobody is away and presence is not asked at all (the planning runs in the
    // send's own turn: its listener has nothing to wait for).
    const linusRoom = await joinRoom(t, linus.token, groupId);
    lookups.length = 0;
    await send(t, ada, groupId, 'Both here');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lookups).toEqual([]);
    expect(await pendingFor(t, grace)).toBeUndefined();
    expect(await pendingFor(t, linus)).toBeUndefined();
    await graceRoom.close();
    await linusRoom.close();
  });

  it('keeps planned mails in the database: one already due at start is sent, and only one process takes it', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    await send(t, ada, chatId, 'Sent while the switch was off');
    expect(await pendingFor(t, grace)).toBeUndefined();
    await setEmail(t, grace, true);

    // Two processes polling the same row: exactly one delete succeeds.
    const row = { user_id: grace.user.id, due_at: new Date(Date.now() + 60_000).toISOString() };
    await repo.scheduleDigests(t.ctx.db, [row.user_id], row.due_at);
    const takes = await Promise.all([repo.takeDigest(t.ctx.db, row), repo.takeDigest(t.ctx.db, row)]);
    expect(takes.filter(Boolean)).toHaveLength(1);

    // A row left by an earlier process, already due, goes out with the next poll.
    await repo.scheduleDigests(t.ctx.db, [grace.user.id], new Date(Date.now() - 1000).toISOString());
    const mail = await digestFor(t, grace);
    expect(mail.subject).toBe('You have 1 unread message on Parley');
    expect(mail.text).toContain(`${BASE}/chats/${chatId}`);
  });
});
