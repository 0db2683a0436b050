import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { isTransientMailFailure, type Mailer, mailFailure, trySend } from './mail';

function captured() {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n'))
        if (line) {
          raw.push(line);
          lines.push(JSON.parse(line));
        }
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream) as unknown as FastifyBaseLogger, lines, raw };
}

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
    const { log, lines, raw } = captured();
    const mail = { to: 'ada@example.test', subject: 'Code', text: 'Your code is 123456' };
    expect(await trySend(failing(smtpError('ECONNECTION')), mail, log, 'sign-up code')).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, mailFailure: { code: 'ECONNECTION' } });
    expect(lines[0]?.msg).toMatch(/sign-up code/);
    expect(raw.join('\n')).not.toMatch(/ada@example|123456/);
  });

  it('says true and logs nothing when the mail went', async () => {
    const { log, lines } = captured();
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
