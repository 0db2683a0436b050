import { MSG } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { BadRequestError } from '../../platform/errors';
import { trySend } from '../../platform/mail';
import { mailLocale, textsIn } from '../../platform/translations';
import { type CodeMailDeps, codeMail, limitMailTo, passwordResetNotice, sendNotice } from './mails';
import type { Passwords } from './passwords';
import type { SessionService } from './session.service';
import * as sessionsRepo from './sessions.repo';
import * as usersRepo from './users.repo';

interface Deps extends CodeMailDeps {
  passwords: Passwords;
  sessions: SessionService;
}

/** A forgotten password: a code mailed to the address, then a new password that signs every session out. */
export class PasswordResetService {
  constructor(private readonly deps: Deps) {}

  /**
   * Answers the same, in the same time, whether or not the address is known: the work runs after the reply.
   * So a mail the server could not send is logged (a warning on `log`, the request's), never told: an
   * unknown address would never hear it, and the difference would say which addresses have accounts.
   */
  async requestReset(emailRaw: string, log: FastifyBaseLogger): Promise<{ message: string }> {
    const { db, codes, mailer } = this.deps;
    const email = emailRaw.toLowerCase();
    await limitMailTo(this.deps.limiter, 'reset', email);
    void (async () => {
      const user = await usersRepo.findUserByEmail(db, email);
      if (!user) return;
      const code = await codes.issue(user.id, 'reset');
      await trySend(
        mailer,
        codeMail(email, 'reset', code, textsIn(mailLocale(user))),
        log,
        'password reset code',
      );
    })().catch((err) => log.error({ err }, 'password reset request failed'));
    return { message: MSG.resetRequestSent };
  }

  async verifyReset(emailRaw: string, code: string): Promise<{ message: string }> {
    const user = await usersRepo.findUserByEmail(this.deps.db, emailRaw.toLowerCase());
    if (!user) throw new BadRequestError(MSG.invalidCode);
    await this.deps.codes.check(user.id, 'reset', code);
    return { message: 'Code verified.' };
  }

  async confirmReset(emailRaw: string, code: string, newPassword: string): Promise<{ message: string }> {
    const { db, codes, passwords } = this.deps;
    const user = await usersRepo.findUserByEmail(db, emailRaw.toLowerCase());
    if (!user) throw new BadRequestError(MSG.invalidCode);
    passwords.assertAllowed(newPassword, 'new_password');
    const row = await codes.check(user.id, 'reset', code);
    const passwordHash = await passwords.hash(newPassword);
    await db.transaction().execute(async (trx) => {
      await codes.consume(trx, row);
      await usersRepo.updateUser(trx, user.id, { password_hash: passwordHash });
      await sessionsRepo.deleteSessionsOfUser(trx, user.id);
    });
    this.deps.sessions.revokedAll(user.id);
    sendNotice(this.deps.mailer, this.deps.log, passwordResetNotice(user.email, textsIn(mailLocale(user))));
    return { message: 'Your password has been reset. You can now log in.' };
  }
}
