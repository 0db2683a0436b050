import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { capturedLog } from '../test-support/captured-log';
import { isTransientMailFailure, type Mailer, mailFailure, trySend } from './mail';

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
