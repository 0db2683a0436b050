import { MSG, type RegisterPayload } from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as usersRepo from '../../src/modules/accounts/users.repo';
import * as repo from '../../src/modules/notifications/notifications.repo';
import { startChat } from '../chats/chat-helpers';
import { type CuttableProxy, startCuttableProxy } from '../helpers/cuttable-proxy';
import { extractCode, newRegistration } from '../helpers/factories';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink';
import { type SignedUp, startTestApp, type TestApp } from '../helpers/test-app';
import { eventually } from '../helpers/ws-client';

// The mail server away: the app sends through a TCP proxy in front of a real SMTP sink, and the test cuts the
// proxy (every connection reset, as a stopped server or a network fault does) and later restores it.

const DELAY_MS = 500;
const DIGEST = /unread message/;
const SIGNUP = /verify/i;
const RESET = /reset code/i;

let sink: SmtpSink;
let smtp: CuttableProxy;
let t: TestApp;
/** Sends the mailer has given up on: a request answered before its mail went shows its failure here. */
let failedSends = 0;

beforeEach(async () => {
  sink = await startSmtpSink();
  smtp = await startCuttableProxy({ host: '127.0.0.1', port: sink.port });
  t = await startTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` },
    config: { emailNotifyDelayMs: DELAY_MS, publicUrl: 'http://parley.test' },
  });
  failedSends = 0;
  const send = t.ctx.mailer.send.bind(t.ctx.mailer);
  t.ctx.mailer.send = (mail, log) =>
    send(mail, log).catch((err) => {
      failedSends += 1;
      throw err;
    });
});
afterEach(async () => {
  await t.close();
  await smtp.close();
  await sink.close();
});

async function signUp(first_name: string): Promise<SignedUp> {
  const payload = newRegistration({ first_name, last_name: 'Tester' });
  expect((await t.post('/api/users/register/', payload)).status).toBe(200);
  const code = extractCode((await sink.waitFor(payload.email, { subject: SIGNUP })).text);
  const res = await t.post('/api/users/email/verify/signup/', {
    email: payload.email,
    verification_code: code,
  });
  expect(res.status, res.text).toBe(200);
  const { token, ...user } = res.body;
  return { token, user, payload };
}

const registerWhileDown = async (): Promise<RegisterPayload> => {
  const payload = newRegistration();
  const res = await t.post('/api/users/register/', payload);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({
    requires_verification: true,
    email: payload.email,
    message: MSG.verificationNotSent,
    mail_sent: false,
  });
  return payload;
};

describe('SMTP down', () => {
  it('registers the account, says the mail was not sent, and the resend once SMTP is back works', async () => {
    smtp.cut();
    const payload = await registerWhileDown();
    const user = await usersRepo.findUserByEmail(t.ctx.db, payload.email);
    expect(user).toMatchObject({ username: payload.username, is_activated: 0 });
    expect(sink.to(payload.email)).toHaveLength(0);

    smtp.restore();
    const resent = await t.post('/api/users/email/resend/signup/', { email: payload.email });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body).toEqual({ message: 'A new verification code has been sent to your email.' });
    const code = extractCode((await sink.waitFor(payload.email, { subject: SIGNUP })).text);
    const verified = await t.post('/api/users/email/verify/signup/', {
      email: payload.email,
      verification_code: code,
    });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.token).toEqual(expect.any(String));
    // With SMTP up the answer is SPEC's, without the field.
    const normal = await t.post('/api/users/register/', newRegistration());
    expect(normal.body).toEqual({
      requires_verification: true,
      email: expect.any(String),
      message: MSG.verificationSent,
    });
  });

  it('answers a resend and a reset request the same for a known and an unknown address', async () => {
    smtp.cut();
    const payload = await registerWhileDown();
    const unknown = 'nobody.here@example.test';
    for (const path of ['/api/users/email/resend/signup/', '/api/users/password/reset/request/']) {
      const known = await t.post(path, { email: payload.email });
      const other = await t.post(path, { email: unknown });
      expect(known.status, known.text).toBe(200);
      expect({ status: known.status, body: known.body }).toEqual({ status: other.status, body: other.body });
    }
    // Asked again while SMTP is still down, the resend says the mail did not go (so the code screen keeps its
    // offer), for both addresses alike; the reset request says nothing of mail.
    const resent = await t.post('/api/users/email/resend/signup/', { email: unknown });
    expect(resent.body).toEqual({ message: MSG.verificationNotSent, mail_sent: false });
    expect(sink.mails).toHaveLength(0);
  });

  it('a reset asked for while SMTP is down can be asked again once it is back, and its code works', async () => {
    smtp.restore();
    const ada = await signUp('Ada');
    smtp.cut();
    const down = await t.post('/api/users/password/reset/request/', { email: ada.payload.email });
    expect(down.status).toBe(200);
    expect(down.body).toEqual({ message: MSG.resetRequestSent });
    // The mail goes after the answer: SMTP comes back only once it has failed.
    await eventually(async () => (failedSends === 1 ? true : undefined), 'the reset mail to fail');

    smtp.restore();
    const up = await t.post('/api/users/password/reset/request/', { email: ada.payload.email });
    expect(up.body).toEqual(down.body);
    const code = extractCode((await sink.waitFor(ada.payload.email, { subject: RESET })).text);
    const confirmed = await t.post('/api/users/password/reset/confirm/', {
      email: ada.payload.email,
      verification_code: code,
      new_password: 'another Good passw0rd!',
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((await t.login(ada.payload.email, 'another Good passw0rd!')).status).toBe(200);
  });

  it('keeps a missed-message mail planned while SMTP is down and sends it once after it is back', async () => {
    const ada = await signUp('Ada');
    const grace = await signUp('Grace');
    for (const p of [ada, grace]) {
      const res = await t.put('/api/users/profile/settings/', { email_notification: true }, p.token);
      expect(res.status).toBe(200);
    }
    const chatId = await startChat(t, ada.token, grace.user.id);

    smtp.cut();
    await t.ctx.messages.send(ada.user.id, chatId, { body: 'While the mail server is away' });
    const planned = await eventually(
      async () => (await repo.pendingDigests(t.ctx.db, [grace.user.id]))[0],
      'a digest planned for Grace',
    );
    // A try fails and puts the digest back, due later; before the fix it was taken and dropped.
    await eventually(
      async () => {
        const now = (await repo.pendingDigests(t.ctx.db, [grace.user.id]))[0];
        return now && now.due_at > planned.due_at ? now : undefined;
      },
      'the digest queued again after a failed try',
      15_000,
    );
    expect(sink.to(grace.payload.email, DIGEST)).toHaveLength(0);

    smtp.restore();
    const mail = await sink.waitFor(grace.payload.email, { subject: DIGEST, timeoutMs: 60_000 });
    expect(mail.subject).toBe('You have 1 unread message on Parley');
    // Sent once: nothing is left planned, and a poll after it sends nothing more.
    await eventually(
      async () => ((await repo.pendingDigests(t.ctx.db, [grace.user.id])).length === 0 ? true : undefined),
      'no digest left for Grace',
    );
    await t.ctx.emailDigests.runDue();
    expect(sink.to(grace.payload.email, DIGEST)).toHaveLength(1);
  });
});
