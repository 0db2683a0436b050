import {
  AUDIT,
  type AuthResponse,
  type CodeResent,
  DEACTIVATED_LOGIN_MESSAGE,
  DEFAULT_LOCALE,
  type Locale,
  MSG,
  type RegisterPayload,
  SSO_MSG,
  type VerificationRequired,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DialectName } from '../../db/database';
import { BadRequestError, FieldsError, ForbiddenError } from '../../platform/errors';
import { trySend } from '../../platform/mail';
import { mailLocale, textsIn } from '../../platform/translations';
import type { AuditService } from '../audit/audit.service';
import { type CodeMailDeps, codeMail, limitMailTo } from './mails';
import type { Passwords } from './passwords';
import type { SessionClient, SessionService } from './session.service';
import { toAuthUser } from './user-view';
import * as usersRepo from './users.repo';

/**
 * The port through which the admin module's server settings decide who may sign up: throws a clear refusal,
 * or admits the address (using up an invite link when one was needed) in the registration's transaction.
 */
export interface SignupGate {
  admit(trx: Db, email: string, invite: string | null): Promise<void>;
}

interface Deps extends CodeMailDeps {
  /** PostgreSQL needs a lock for choosing the first site admin; SQLite's writers take turns already. */
  dialect: DialectName;
  passwords: Passwords;
  sessions: SessionService;
  audit: AuditService;
  /** Who may sign up: the admin module's server settings. */
  signupGate: SignupGate;
  /** OIDC_ONLY: the provider's name; accounts are then made by signing in with it, never with a password. */
  ssoOnly?: string | null;
}

/** Sign-up: an account waits, unactivated, until the code mailed to its address comes back. */
export class SignUpService {
  constructor(private readonly deps: Deps) {}

  /**
   * `log`: the request's. When the mail server refuses, the account stays (its code can be asked for again)
   * and the answer says the mail was not sent, rather than a 500 for an account that exists.
   */
  async register(
    input: RegisterPayload,
    log: FastifyBaseLogger = this.deps.log,
    /** The language of the browser signing up (its Accept-Language): its mail is written in it. */
    language: Locale = DEFAULT_LOCALE,
  ): Promise<VerificationRequired> {
    const { db, passwords } = this.deps;
    if (this.deps.ssoOnly) throw new ForbiddenError(SSO_MSG.signUpOff.replace('{name}', this.deps.ssoOnly));
    const email = input.email.toLowerCase();
    passwords.assertAllowed(input.password, 'password');
    const taken: Record<string, string[]> = {};
    if (await usersRepo.findUserByUsername(db, input.username)) taken.username = [MSG.usernameTaken];
    if (await usersRepo.findUserByEmail(db, email)) taken.email = [MSG.emailTaken];
    if (Object.keys(taken).length > 0) throw new FieldsError(taken);
    await limitMailTo(this.deps.limiter, 'signup', email);

    const passwordHash = await passwords.hash(input.password);
    let code: string;
    try {
      // The account and its code are written together: no account is left without a way to verify it.
      code = await db.transaction().execute(async (trx) => {
        await this.deps.signupGate.admit(trx, email, input.invite ?? null);
        const userId = await usersRepo.insertUser(trx, {
          username: input.username,
          email,
          password_hash: passwordHash,
          first_name: input.first_name,
          last_name: input.last_name,
          displayname: `${input.first_name} ${input.last_name}`.trim(),
          date_joined: new Date().toISOString(),
          signup_language: language,
        });
        return this.deps.codes.issue(userId, 'signup', null, trx);
      });
    } catch (err) {
      // Two sign-ups racing for one name: the unique index decides.
      if (/unique|duplicate/i.test(String(err))) {
        throw new FieldsError(
          /email/i.test(String(err)) ? { email: [MSG.emailTaken] } : { username: [MSG.usernameTaken] },
        );
      }
      throw err;
    }
    if (
      await trySend(this.deps.mailer, codeMail(email, 'signup', code, textsIn(language)), log, 'sign-up code')
    ) {
      return { requires_verification: true, email, message: MSG.verificationSent };
    }
    return { requires_verification: true, email, message: MSG.verificationNotSent, mail_sent: false };
  }

  /**
   * Answers alike whether or not the address has an account waiting. When the mail server is away the answer
   * says the mail did not go (`mail_sent: false`): for an address with an account because its mail failed, for
   * one without because the last mail this process tried failed, so the answer tells nothing about the address.
   */
  async resendSignup(emailRaw: string, log: FastifyBaseLogger = this.deps.log): Promise<CodeResent> {
    const email = emailRaw.toLowerCase();
    await limitMailTo(this.deps.limiter, 'signup', email);
    const user = await usersRepo.findUserByEmail(this.deps.db, email);
    if (user?.is_activated) throw new BadRequestError(MSG.alreadyVerified);
    let sent = !this.deps.mailer.failing;
    if (user) {
      const code = await this.deps.codes.issue(user.id, 'signup');
      sent = await trySend(
        this.deps.mailer,
        codeMail(email, 'signup', code, textsIn(mailLocale(user))),
        log,
        'sign-up code resend',
      );
    }
    if (!sent) return { message: MSG.verificationNotSent, mail_sent: false };
    return { message: 'A new verification code has been sent to your email.' };
  }

  /** The mailed code activates the account and signs it in. */
  async verifySignup(emailRaw: string, code: string, client: SessionClient): Promise<AuthResponse> {
    const { db, codes, sessions } = this.deps;
    const user = await usersRepo.findUserByEmail(db, emailRaw.toLowerCase());
    if (!user) throw new BadRequestError(MSG.invalidCode);
    if (user.is_activated) throw new BadRequestError(MSG.alreadyVerified);
    if (user.deactivated_at) throw new ForbiddenError(DEACTIVATED_LOGIN_MESSAGE);
    const row = await codes.check(user.id, 'signup', code);
    const { token, admin } = await db.transaction().execute(async (trx) => {
      await codes.consume(trx, row);
      // Written first: on SQLite this write makes the rest of the transaction wait for any other writer.
      await usersRepo.updateUser(trx, user.id, { is_activated: 1 });
      const admin = !!user.is_site_admin || (await this.becomeFirstAdmin(trx, user.id));
      return { token: await sessions.create(user.id, true, trx, client), admin };
    });
    return { token, ...toAuthUser({ ...user, is_activated: 1, is_site_admin: admin ? 1 : 0 }) };
  }

  /**
   * The first account whose address is verified becomes the server's site admin (README), unless someone holds
   * the role already (the operator's `grant-admin`): an address nobody proved owns nothing. Single sign-on asks
   * it too, for an account the provider's verified address makes or verifies. Two verifications at
   * once make one admin: on PostgreSQL they take turns on a lock, on SQLite on the write the caller made first,
   * and each looks again once it has its turn.
   */
  async becomeFirstAdmin(trx: Db, userId: number): Promise<boolean> {
    if (await usersRepo.anotherVerifiedOrAdmin(trx, userId)) return false;
    await usersRepo.lockFirstAdminChoice(trx, this.deps.dialect);
    if (await usersRepo.anotherVerifiedOrAdmin(trx, userId)) return false;
    await usersRepo.updateUser(trx, userId, { is_site_admin: 1 });
    this.deps.log.info({ userId }, 'The first verified account on this server is its site admin');
    await this.deps.audit.record(
      { type: AUDIT.adminGranted, target_id: userId, detail: { first: true } },
      trx,
    );
    return true;
  }
}
