import {
  AUDIT,
  type AuthResponse,
  DEACTIVATED_LOGIN_MESSAGE,
  MSG,
  type RegisterPayload,
  type SettingsField,
  type VerificationRequired,
} from '@parley/protocol';
import argon2 from 'argon2';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { BadRequestError, FieldsError, ForbiddenError, HttpError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { Mail, Mailer } from '../../platform/mail';
import type { Presence } from '../../platform/presence';
import type { RateLimiter } from '../../platform/rate-limit';
import { enforceLimit } from '../../platform/rate-limit-policy';
import type { AuditService } from '../audit/audit.service';
import type { CodeService } from './code.service';
import { isCommonPassword } from './common-passwords';
import { codeMail, emailChangedNotice, passwordResetNotice } from './mails';
import type { Session, SessionClient, SessionService } from './session.service';
import * as sessionsRepo from './sessions.repo';
import type { TwoFactorService } from './two-factor.service';
import { toAuthUser, toOwnProfile, toSettings } from './user-view';
import * as usersRepo from './users.repo';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

interface Deps {
  config: Config;
  log: FastifyBaseLogger;
  db: Db;
  mailer: Mailer;
  limiter: RateLimiter;
  events: DomainEvents;
  presence: Presence;
  sessions: SessionService;
  codes: CodeService;
  audit: AuditService;
  /** Who may sign up (the admin module's server settings); everyone when absent. */
  signupGate?: SignupGate;
  /** The second step of a sign-in (two-step sign-in), after the password. */
  twoFactor?: Pick<TwoFactorService, 'checkSignIn'>;
}

/** What a sign-in brings besides its credentials: the second step's code, and where it signs in from. */
export interface SignInExtras {
  totpCode?: string;
  client?: SessionClient;
}

/**
 * The port through which the admin module's server settings decide who may sign up: throws a clear refusal,
 * or admits the address (using up an invite link when one was needed) in the registration's transaction.
 */
export interface SignupGate {
  admit(trx: Db, email: string, invite: string | null): Promise<void>;
}

/** Account rules: sign-up with verification, login, password reset, email change, settings and deletion. */
export class AccountsService {
  private readonly argonOptions;
  /** A real hash to verify against when the email is unknown, so both answers take the same time. */
  private dummyHash: Promise<string>;
  private readonly log: FastifyBaseLogger;
  private readonly db: Db;
  private readonly mailer: Mailer;
  private readonly limiter: RateLimiter;
  private readonly events: DomainEvents;
  private readonly presence: Presence;
  private readonly sessions: SessionService;
  private readonly codes: CodeService;
  private readonly twoFactor: Deps['twoFactor'] | null;
  private readonly audit: AuditService;
  private readonly signupGate: SignupGate | null;

  constructor(deps: Deps) {
    this.log = deps.log;
    this.db = deps.db;
    this.mailer = deps.mailer;
    this.limiter = deps.limiter;
    this.events = deps.events;
    this.presence = deps.presence;
    this.sessions = deps.sessions;
    this.codes = deps.codes;
    this.twoFactor = deps.twoFactor ?? null;
    this.audit = deps.audit;
    this.signupGate = deps.signupGate ?? null;
    this.argonOptions = {
      type: argon2.argon2id as 2,
      memoryCost: deps.config.argonMemoryKiB,
      timeCost: 2,
      parallelism: 1,
    };
    this.dummyHash = argon2.hash('parley-dummy-password', this.argonOptions);
  }

  private hashPassword(password: string) {
    return argon2.hash(password, this.argonOptions);
  }

  private assertPasswordAllowed(password: string, field: string) {
    if (isCommonPassword(password)) throw new FieldsError({ [field]: [MSG.passwordTooCommon] });
  }

  /** Mails to one address: 2 an hour and 5 a day (DESIGN §7), counted per purpose. */
  private async limitMailTo(purpose: string, email: string) {
    await enforceLimit(this.limiter, `mail:h:${purpose}:${email}`, 2, HOUR);
    await enforceLimit(this.limiter, `mail:d:${purpose}:${email}`, 5, DAY);
  }

  /** A notice about a change already made: its failure must not turn the change into an error. */
  private notify(mail: Mail) {
    this.mailer
      .send(mail)
      .catch((err) => this.log.error({ err, subject: mail.subject }, 'notice mail failed'));
  }

  private verificationRequired(email: string): VerificationRequired {
    return { requires_verification: true, email, message: MSG.verificationSent };
  }

  async register(input: RegisterPayload): Promise<VerificationRequired> {
    const email = input.email.toLowerCase();
    this.assertPasswordAllowed(input.password, 'password');
    const taken: Record<string, string[]> = {};
    if (await usersRepo.findUserByUsername(this.db, input.username)) taken.username = [MSG.usernameTaken];
    if (await usersRepo.findUserByEmail(this.db, email)) taken.email = [MSG.emailTaken];
    if (Object.keys(taken).length > 0) throw new FieldsError(taken);
    await this.limitMailTo('signup', email);

    const passwordHash = String(await this.hashPassword(input.password));
    let code: string;
    try {
      // The account and its code are written together: no account is left without a way to verify it.
      code = await this.db.transaction().execute(async (trx) => {
        await this.signupGate?.admit(trx, email, input.invite ?? null);
        // The first account on a fresh server is its site admin (README); later ones are not.
        const first = !(await usersRepo.anyUser(trx));
        const userId = await usersRepo.insertUser(trx, {
          username: input.username,
          email,
          password_hash: passwordHash,
          first_name: input.first_name,
          last_name: input.last_name,
          displayname: `${input.first_name} ${input.last_name}`.trim(),
          date_joined: new Date().toISOString(),
          is_site_admin: first ? 1 : 0,
        });
        if (first) {
          this.log.info({ userId }, 'The first account on this server is its site admin');
          await this.audit.record(
            { type: AUDIT.adminGranted, target_id: userId, detail: { first: true } },
            trx,
          );
        }
        return this.codes.issue(userId, 'signup', null, trx);
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
    await this.mailer.send(codeMail(email, 'Verify your Parley account', code));
    return this.verificationRequired(email);
  }

  async resendSignup(emailRaw: string): Promise<{ message: string }> {
    const email = emailRaw.toLowerCase();
    await this.limitMailTo('signup', email);
    const user = await usersRepo.findUserByEmail(this.db, email);
    if (user?.is_activated) throw new BadRequestError(MSG.alreadyVerified);
    if (user) {
      const code = await this.codes.issue(user.id, 'signup');
      await this.mailer.send(codeMail(email, 'Verify your Parley account', code));
    }
    return { message: 'A new verification code has been sent to your email.' };
  }

  async verifySignup(emailRaw: string, code: string, client: SessionClient = {}): Promise<AuthResponse> {
    const user = await usersRepo.findUserByEmail(this.db, emailRaw.toLowerCase());
    if (!user) throw new BadRequestError(MSG.invalidCode);
    if (user.is_activated) throw new BadRequestError(MSG.alreadyVerified);
    if (user.deactivated_at) throw new ForbiddenError(DEACTIVATED_LOGIN_MESSAGE);
    const row = await this.codes.check(user.id, 'signup', code);
    const token = await this.db.transaction().execute(async (trx) => {
      await this.codes.consume(trx, row);
      await usersRepo.updateUser(trx, user.id, { is_activated: 1 });
      return this.sessions.create(user.id, true, trx, client);
    });
    return { token, ...toAuthUser({ ...user, is_activated: 1 }) };
  }

  async login(
    emailRaw: string,
    password: string,
    remember: boolean,
    ip: string,
    extras: SignInExtras = {},
  ): Promise<AuthResponse> {
    const email = emailRaw.toLowerCase();
    const accountKey = `login-fail:acct:${email}`;
    const ipKey = `login-fail:ip:${ip}`;
    await enforceLimit(this.limiter, accountKey, 5, 30 * 60_000, true);
    await enforceLimit(this.limiter, ipKey, 50, 30 * 60_000, true);

    const user = await usersRepo.findUserByEmail(this.db, email);
    const ok = user
      ? await argon2.verify(user.password_hash, password)
      : await argon2.verify(await this.dummyHash, password).then(() => false);
    if (!user || !ok) {
      await this.limiter.hit(accountKey, 5, 30 * 60_000);
      await this.limiter.hit(ipKey, 50, 30 * 60_000);
      await this.recordLoginFailure(user?.id ?? null, accountKey, ip);
      throw new BadRequestError(MSG.invalidCredentials);
    }
    if (user.deactivated_at) {
      await this.audit.record({ type: AUDIT.deactivatedLogin, target_id: user.id, detail: { ip } });
      throw new ForbiddenError(DEACTIVATED_LOGIN_MESSAGE);
    }
    if (!user.is_activated) {
      throw new ForbiddenError({
        requires_verification: true,
        email: user.email,
        message: MSG.verifyBeforeLogin,
      });
    }
    // Only a right password reaches the second step, so a stranger cannot use up a person's code tries.
    await this.twoFactor?.checkSignIn(user.id, extras.totpCode, ip);
    await this.limiter.reset(accountKey);
    const token = await this.sessions.create(user.id, remember, undefined, { ip, ...extras.client });
    return { token, ...toAuthUser(user) };
  }

  /** A failed sign-in, and the lockout it starts when it is the fifth (the address is not kept: it may be a typo). */
  private async recordLoginFailure(userId: number | null, accountKey: string, ip: string) {
    await this.audit.record({ type: AUDIT.loginFailed, target_id: userId, detail: { ip } });
    if (userId !== null && !(await this.limiter.peek(accountKey, 5, 30 * 60_000)).allowed)
      await this.audit.record({ type: AUDIT.loginLocked, target_id: userId, detail: { ip } });
  }

  logout(session: Session) {
    return this.sessions.revoke(session);
  }

  /** Answers the same, in the same time, whether or not the address is known: the work runs after the reply. */
  async requestReset(emailRaw: string, onError: (err: unknown) => void): Promise<{ message: string }> {
    const email = emailRaw.toLowerCase();
    await this.limitMailTo('reset', email);
    void (async () => {
      const user = await usersRepo.findUserByEmail(this.db, email);
      if (!user) return;
      const code = await this.codes.issue(user.id, 'reset');
      await this.mailer.send(codeMail(email, 'Your Parley password reset code', code));
    })().catch(onError);
    return { message: MSG.resetRequestSent };
  }

  async verifyReset(emailRaw: string, code: string): Promise<{ message: string }> {
    const user = await usersRepo.findUserByEmail(this.db, emailRaw.toLowerCase());
    if (!user) throw new BadRequestError(MSG.invalidCode);
    await this.codes.check(user.id, 'reset', code);
    return { message: 'Code verified.' };
  }

  async confirmReset(emailRaw: string, code: string, newPassword: string): Promise<{ message: string }> {
    const user = await usersRepo.findUserByEmail(this.db, emailRaw.toLowerCase());
    if (!user) throw new BadRequestError(MSG.invalidCode);
    this.assertPasswordAllowed(newPassword, 'new_password');
    const row = await this.codes.check(user.id, 'reset', code);
    const passwordHash = String(await this.hashPassword(newPassword));
    await this.db.transaction().execute(async (trx) => {
      await this.codes.consume(trx, row);
      await usersRepo.updateUser(trx, user.id, { password_hash: passwordHash });
      await sessionsRepo.deleteSessionsOfUser(trx, user.id);
    });
    this.sessions.revokedAll(user.id);
    this.notify(passwordResetNotice(user.email));
    return { message: 'Your password has been reset. You can now log in.' };
  }

  private async requireUser(userId: number) {
    const user = await usersRepo.findUserById(this.db, userId);
    if (!user) throw new HttpError(401, { detail: MSG.invalidToken });
    return user;
  }

  async ownProfile(userId: number) {
    const user = await this.requireUser(userId);
    return toOwnProfile(user, await this.presence.isOnline(userId));
  }

  async settings(userId: number) {
    const user = await this.requireUser(userId);
    const pending = await this.codes.pending(userId, 'email_change');
    return toSettings(user, pending?.new_email ?? null);
  }

  async updateSettings(userId: number, changes: Partial<Record<SettingsField, boolean>>) {
    const set = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, v ? 1 : 0]));
    await usersRepo.updateUser(this.db, userId, set);
    return this.settings(userId);
  }

  async requestEmailChange(userId: number, newEmailRaw: string) {
    const user = await this.requireUser(userId);
    const email = newEmailRaw.toLowerCase();
    if (email === user.email) throw new FieldsError({ email: ['This is already your email address.'] });
    if (await usersRepo.findUserByEmail(this.db, email)) throw new FieldsError({ email: [MSG.emailTaken] });
    await this.limitMailTo('email_change', email);
    const code = await this.codes.issue(userId, 'email_change', email);
    await this.mailer.send(codeMail(email, 'Confirm your new Parley email address', code));
    return {
      requires_verification: true,
      pending_email: email,
      message: 'A verification code has been sent to your new email.',
    };
  }

  async confirmEmailChange(userId: number, code: string) {
    const user = await this.requireUser(userId);
    const row = await this.codes.check(userId, 'email_change', code);
    const email = row.new_email;
    if (!email) throw new BadRequestError(MSG.invalidCode);
    const updated = await this.db.transaction().execute(async (trx) => {
      // Taken since the code was sent: refused, and the code is left for nothing (a new request replaces it).
      if (await usersRepo.findUserByEmail(trx, email)) throw new FieldsError({ email: [MSG.emailTaken] });
      await this.codes.consume(trx, row);
      try {
        await usersRepo.updateUser(trx, userId, { email });
      } catch (err) {
        // Taken by a sign-up between the look-up and the update: the unique index decides.
        if (/unique|duplicate/i.test(String(err))) throw new FieldsError({ email: [MSG.emailTaken] });
        throw err;
      }
      return usersRepo.findUserById(trx, userId);
    });
    if (!updated) throw new HttpError(401, { detail: MSG.invalidToken });
    this.notify(emailChangedNotice(user.email, email));
    return { message: 'Email updated successfully.', user: toAuthUser(updated) };
  }

  /** Written when a user's last socket closes. */
  async markSeen(userId: number): Promise<void> {
    await usersRepo.updateUser(this.db, userId, { last_seen: new Date().toISOString() });
  }

  async usernameOf(userId: number): Promise<string> {
    return (await usersRepo.findUserById(this.db, userId))?.username ?? '';
  }

  /** Deletes credentials, sessions and profile; every open session dies at once. */
  async deleteAccount(userId: number) {
    await this.requireUser(userId);
    await this.events.emitAndWait('user.deleted', { userId });
    await usersRepo.deleteUser(this.db, userId);
    this.events.emit('sessions.revoked', { userId, sessionIds: 'all' });
  }
}
