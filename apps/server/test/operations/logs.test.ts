import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AuthResponse } from '@parley/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { extractCode, GOOD_PASSWORD, newRegistration } from '../helpers/factories';
import { FakeBrowser, type PushEndpoint, startPushEndpoint } from '../helpers/push-endpoint';
import { killAll, randomIp, roomPath, type ServerProcess, spawnServer } from '../helpers/server-process';
import { createStore, type ServerStore } from '../helpers/server-store';
import type { Json } from '../helpers/test-app';
import { until } from '../helpers/waits';
import { WsClient } from '../helpers/ws-client';

// What a real process writes to its log: in production one JSON line per request with its request id,
// background work (the push fan-out, the missed-message mail) under a job id and the id of the socket request
// that set it off, and never a password, code, session token, socket ticket, push endpoint or message body; in
// development, requests at debug, so the default level shows the mails (codes included, on purpose) and warnings.

const stores: ServerStore[] = [];
const pushes: PushEndpoint[] = [];
afterAll(async () => {
  await killAll();
  for (const push of pushes) await push.close();
  for (const store of stores) await store.close();
});

/** Everything the process writes from now on (stdout and stderr). */
function capture(proc: ServerProcess): () => string {
  let text = '';
  proc.child.stdout?.on('data', (chunk: string) => {
    text += chunk;
  });
  proc.child.stderr?.on('data', (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

async function start(env: Record<string, string | undefined>) {
  const store = await createStore();
  stores.push(store);
  const push = await startPushEndpoint();
  pushes.push(push);
  const proc = await spawnServer({
    store,
    env: { SMTP_URL: undefined, PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true', EMAIL_NOTIFY_DELAY_MS: '0', ...env },
  });
  return { proc, push, output: capture(proc) };
}

/** The newest mail to `to` in the process's outbox directory (production serves no /dev/mail). */
async function mailTo(proc: ServerProcess, to: string, subject: RegExp): Promise<{ text: string }> {
  const dir = path.join(proc.dataDir, 'outbox');
  let found: { text: string } | undefined;
  await until(
    async () => {
      const names = await fs.readdir(dir).catch(() => [] as string[]);
      // A mail being written is beside its name until it is whole (`.json.tmp`, platform/mail.ts).
      for (const name of names
        .filter((n) => n.endsWith('.json'))
        .sort()
        .reverse()) {
        const mail = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8'));
        if (mail.to === to && subject.test(mail.subject)) {
          found = mail;
          return true;
        }
      }
      return false;
    },
    `a mail to ${to} matching ${subject}`,
    10_000,
    50,
  );
  return found as { text: string };
}

/**
 * Ada and Grace sign up and sign in; Grace, away, has missed-message mail on and a browser whose push service
 * refuses (a warning); Ada sends Grace a message on a room socket opened with the request id `socketRequestId`.
 * Returns every secret that went over the wire.
 */
async function converse(proc: ServerProcess, push: PushEndpoint, socketRequestId: string) {
  const secrets: string[] = [GOOD_PASSWORD];
  const codes: string[] = [];
  const signUp = async (first_name: string) => {
    const payload = newRegistration({ first_name });
    const headers = { 'x-forwarded-for': randomIp() };
    expect((await proc.post('/api/users/register/', payload, undefined, headers)).status).toBe(200);
    const code = extractCode((await mailTo(proc, payload.email, /Verify/)).text);
    codes.push(code);
    const verified = await proc.post(
      '/api/users/email/verify/signup/',
      { email: payload.email, verification_code: code },
      undefined,
      headers,
    );
    expect(verified.status, verified.text).toBe(200);
    const login = await proc.post(
      '/api/users/login/',
      { email: payload.email, password: payload.password },
      undefined,
      headers,
    );
    expect(login.status, login.text).toBe(200);
    const signedIn = login.body as AuthResponse;
    secrets.push((verified.body as AuthResponse).token, signedIn.token);
    return { ...signedIn, email: payload.email };
  };
  const ada = await signUp('Ada');
  const grace = await signUp('Grace');

  const settings = await proc.request('PUT', '/api/users/profile/settings/', {
    json: { email_notification: true },
    token: grace.token,
  });
  expect(settings.status, settings.text).toBe(200);
  const pushPath = `/push/${randomBytes(8).toString('hex')}`;
  push.answer(pushPath, 500);
  const browser = new FakeBrowser(push.url(pushPath));
  expect((await proc.post('/api/push/subscriptions/', browser.subscription, grace.token)).status).toBe(201);
  secrets.push(pushPath, browser.subscription.keys.auth, browser.subscription.keys.p256dh);

  const chat = await proc.get(`/api/chats/start/${grace.id}/`, ada.token);
  expect(chat.status, chat.text).toBe(200);
  const ticket = await proc.ticket(ada.token);
  secrets.push(ticket);
  const room = await WsClient.connect(proc.wsUrl(roomPath(chat.body.chat_id), ticket), {
    headers: { 'x-request-id': socketRequestId },
  });
  await room.next('in_chat_count', () => true, 10_000);
  const body = `a private note ${randomBytes(6).toString('hex')}`;
  secrets.push(body);
  room.send({ type: 'chat_message', body, client_id: 'logs-1' });
  await room.next('chat_message', (f) => f.client_id === 'logs-1', 10_000);
  await push.waitFor(pushPath, 1, 10_000);
  await mailTo(proc, grace.email, /unread message/);
  await room.close();
  return { secrets, codes };
}

describe('the log of a production process', () => {
  it('is one JSON line per request with its id, carries ids into background work, and holds no secret', async () => {
    const { proc, push, output } = await start({ NODE_ENV: 'production', LOG_LEVEL: 'info' });
    const socketRequestId = `socket-${randomBytes(4).toString('hex')}`;
    const { secrets, codes } = await converse(proc, push, socketRequestId);

    const probeId = `probe-${randomBytes(4).toString('hex')}`;
    const probe = await proc.request('GET', '/api/health', { headers: { 'x-request-id': probeId } });
    expect(probe.headers.get('x-request-id')).toBe(probeId);

    const lines = () =>
      output()
        .split('\n')
        .filter((line) => line.trim() !== '');
    const entries = (): Json[] => lines().map((line) => JSON.parse(line));
    await until(
      () => output().includes(probeId) && output().includes('push service refused'),
      'the probe and the push lines',
      10_000,
    );
    // Every line is JSON (a stack or a pretty line would not parse).
    expect(() => entries()).not.toThrow();

    // One line for the probe: the request, with its id.
    const probeLines = entries().filter((e) => e.reqId === probeId);
    expect(probeLines).toEqual([
      expect.objectContaining({ msg: 'request', method: 'GET', url: '/api/health', status: 200 }),
    ]);
    const requests = entries().filter((e) => e.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(10);
    for (const r of requests) expect(typeof r.reqId).toBe('string');

    // Background work: the push fan-out under a job id and the id of the socket request that sent the message;
    // the missed-message mail under its poll's job id; mails named by recipient and subject only.
    const pushLine = entries().find((e) => e.msg === 'push service refused a notification');
    expect(pushLine).toMatchObject({ job: 'web push fan-out', reqId: socketRequestId, status: 500 });
    expect(pushLine?.job_id).toMatch(/^[0-9a-f-]{36}$/);
    const stored = entries().filter((e) => String(e.msg).startsWith('mail stored in the outbox'));
    expect(stored.length).toBeGreaterThanOrEqual(3);
    const digest = stored.find((e) => /unread message/.test(e.subject));
    expect(digest).toMatchObject({ job: 'missed-message mail poll' });
    expect(digest?.job_id).toMatch(/^[0-9a-f-]{36}$/);

    for (const line of lines()) {
      for (const secret of secrets) expect(line).not.toContain(secret);
      for (const code of codes) expect(line).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
    }
  }, 120_000);
});

describe('the log of a development process', () => {
  it('keeps requests at debug: the default level shows the mails (with their codes) and warnings', async () => {
    // LOG_LEVEL unset: the default (info) a newcomer gets from `npm start`.
    const { proc, push, output } = await start({ NODE_ENV: 'development', LOG_LEVEL: undefined });
    const { codes } = await converse(proc, push, 'dev-socket');
    const probeId = `probe-${randomBytes(4).toString('hex')}`;
    expect((await proc.request('GET', '/api/health', { headers: { 'x-request-id': probeId } })).status).toBe(
      200,
    );

    await until(() => output().includes('push service refused'), 'the push warning', 10_000);
    expect(output()).toMatch(/WARN.*push service refused a notification/);
    expect(output()).toContain('dev outbox mail');
    for (const code of codes) expect(output()).toContain(code);
    // No request lines: neither the probe's id nor any API path.
    expect(output()).not.toContain(probeId);
    expect(output()).not.toContain('/api/users/register/');
    expect(output()).not.toContain('/api/health');
  }, 120_000);
});
