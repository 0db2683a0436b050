import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config';
import { capturedLog } from '../test-support/captured-log';
import {
  createMailer,
  isTransientMailFailure,
  type Mailer,
  mailFailure,
  SMTP_TIMEOUTS,
  trySend,
} from './mail';

const mailLog = () => {
  const c = capturedLog();
  return { ...c, log: c.log as unknown as FastifyBaseLogger };
};

/** A failure shaped like nodemailer's: its message and reply quote the recipient. */
const smtpError = (code: string, responseCode?: number) =>
  Object.assign(new Error('Can not send to <ada@example.test>: 123456'), {
    code,
    ...(responseCode === undefined ? {} : { responseCode, response: `${responseCode} <ada@example.test>` }),
  });

const failing = (err: unknown): Mailer => ({
  send: () => Promise.reject(err),
  close: async () => {},
});

describe('trySend', () => {
  it('says false and logs one warning naming the failure, never the address or the text', async () => {
    const { log, lines, raw } = mailLog();
    const mail = { to: 'ada@example.test', subject: 'Code', text: 'Your code is 123456' };
    expect(await trySend(failing(smtpError('ECONNECTION')), mail, log, 'sign-up code')).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, mailFailure: { code: 'ECONNECTION' } });
    expect(lines[0]?.msg).toMatch(/sign-up code/);
    expect(raw.join('\n')).not.toMatch(/ada@example|123456/);
  });

  it('says true and logs nothing when the mail went', async () => {
    const { log, lines } = mailLog();
    const sent: Mailer = { send: async () => {}, close: async () => {} };
    expect(await trySend(sent, { to: 'a@b.test', subject: 's', text: 't' }, log, 'x')).toBe(true);
    expect(lines).toHaveLength(0);
  });
});

describe('mail failures', () => {
  it('tries again after an unreachable server or a 4xx answer, not after a 5xx refusal', () => {
    expect(isTransientMailFailure(smtpError('ECONNECTION'))).toBe(true);
    expect(isTransientMailFailure(smtpError('ESOCKET'))).toBe(true);
    expect(isTransientMailFailure(smtpError('EENVELOPE', 451))).toBe(true);
    expect(isTransientMailFailure(smtpError('EENVELOPE', 550))).toBe(false);
    expect(mailFailure(smtpError('EENVELOPE', 550))).toEqual({ code: 'EENVELOPE', responseCode: 550 });
    expect(mailFailure('odd')).toEqual({ code: 'EUNKNOWN' });
  });
});

describe('an SMTP server that accepts connections and never answers', () => {
  const sockets: net.Socket[] = [];
  let server: net.Server | null = null;
  afterEach(async () => {
    vi.useRealTimers();
    for (const s of sockets.splice(0)) s.destroy();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  });

  it('fails the mail after the greeting timeout, not after minutes', async () => {
    server = net.createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { log } = mailLog();
    const mailer = createMailer(loadConfig({ SMTP_URL: `smtp://127.0.0.1:${port}` }), log);
    let failure: unknown = null;
    void mailer.send({ to: 'ada@example.test', subject: 'Code', text: '123456' }).catch((err) => {
      failure = err;
    });
    // Connected (real sockets), then silence.
    while (sockets.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(SMTP_TIMEOUTS.greetingTimeout - 1000);
    expect(failure).toBeNull();
    await vi.advanceTimersByTimeAsync(2000);
    expect(failure).toMatchObject({ code: 'ETIMEDOUT' });
    expect(isTransientMailFailure(failure)).toBe(true);
    await mailer.close();
  });
});
