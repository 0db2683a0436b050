import { CODE_TTL_MINUTES } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import type { Mail, Mailer } from '../../platform/mail';
import type { RateLimiter } from '../../platform/rate-limit';
import { enforceLimit } from '../../platform/rate-limit-policy';
import type { TextId, Texts } from '../../platform/translations';
import type { CodeService } from './code.service';

// The account mails: their texts (in the recipient's language, from the catalogs), how many one address may be
// sent, and notices that cannot fail a change.

/** Which code a mail carries. */
export type CodePurpose = 'signup' | 'reset' | 'emailChange';
const CODE_SUBJECT = {
  signup: 'mail.signup.subject',
  reset: 'mail.reset.subject',
  emailChange: 'mail.emailChange.subject',
} as const satisfies Record<CodePurpose, TextId>;

export const codeMail = (to: string, purpose: CodePurpose, code: string, t: Texts): Mail => ({
  to,
  subject: t(CODE_SUBJECT[purpose]),
  text: t('mail.code.body', { code, minutes: CODE_TTL_MINUTES }),
});

export const passwordResetNotice = (to: string, t: Texts): Mail => ({
  to,
  subject: t('mail.passwordChanged.subject'),
  text: t('mail.passwordChanged.body'),
});

export const emailChangedNotice = (to: string, newEmail: string, t: Texts): Mail => ({
  to,
  subject: t('mail.emailChanged.subject'),
  text: t('mail.emailChanged.body', { email: newEmail }),
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
