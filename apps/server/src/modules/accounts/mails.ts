import { CODE_TTL_MINUTES } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import type { Mail, Mailer } from '../../platform/mail';
import type { RateLimiter } from '../../platform/rate-limit';
import { enforceLimit } from '../../platform/rate-limit-policy';
import type { CodeService } from './code.service';

// The account mails: their texts, how many one address may be sent, and notices that cannot fail a change.
export const codeMail = (to: string, subject: string, code: string): Mail => ({
  to,
  subject,
  text: `Your Parley code is ${code}\n\nIt expires in ${CODE_TTL_MINUTES} minutes and works once. If you did not ask for it, ignore this mail.`,
});

export const passwordResetNotice = (to: string): Mail => ({
  to,
  subject: 'Your Parley password was changed',
  text: 'Your Parley password was just reset and every signed-in session was signed out.\n\nIf this was not you, reset your password again at once.',
});

export const emailChangedNotice = (to: string, newEmail: string): Mail => ({
  to,
  subject: 'Your Parley email address was changed',
  text: `The email address of your Parley account was changed to ${newEmail}.\n\nIf this was not you, contact the operator of this Parley server.`,
});

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** Mails to one address: 2 an hour and 5 a day (DESIGN §7), counted per purpose. */
export async function limitMailTo(limiter: RateLimiter, purpose: string, email: string): Promise<void> {
  await enforceLimit(limiter, `mail:h:${purpose}:${email}`, 2, HOUR);
  await enforceLimit(limiter, `mail:d:${purpose}:${email}`, 5, DAY);
}

/** A notice about a change already made: its failure must not turn the change into an error. */
export function sendNotice(mailer: Mailer, log: FastifyBaseLogger, mail: Mail): void {
  mailer.send(mail).catch((err) => log.error({ err, subject: mail.subject }, 'notice mail failed'));
}

/** What every service that mails a code to an address needs (sign-up, reset, email change). */
export interface CodeMailDeps {
  log: FastifyBaseLogger;
  db: Db;
  mailer: Mailer;
  limiter: RateLimiter;
  codes: CodeService;
}
