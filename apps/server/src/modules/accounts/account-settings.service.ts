import { MSG, type SettingsUpdate } from '@parley/protocol';
import { BadRequestError, FieldsError, HttpError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { Presence } from '../../platform/presence';
import { mailLocale, textsIn } from '../../platform/translations';
import { type CodeMailDeps, codeMail, emailChangedNotice, limitMailTo, sendNotice } from './mails';
import type { TwoFactorService } from './two-factor.service';
import { toAuthUser, toOwnProfile, toSettings } from './user-view';
import * as usersRepo from './users.repo';

interface Deps extends CodeMailDeps {
  events: DomainEvents;
  presence: Presence;
  /** The owner's proof (password, and a code with two-step sign-in on) before the account is deleted. */
  twoFactor: Pick<TwoFactorService, 'confirmOwner'>;
}

/** What a signed-in person sees and changes of their own account: profile, settings, email, and its deletion. */
export class AccountSettingsService {
  constructor(private readonly deps: Deps) {}

  private async requireUser(userId: number) {
    const user = await usersRepo.findUserById(this.deps.db, userId);
    if (!user) throw new HttpError(401, { detail: MSG.invalidToken });
    return user;
  }

  async ownProfile(userId: number) {
    const user = await this.requireUser(userId);
    return toOwnProfile(user, await this.deps.presence.isOnline(userId));
  }

  async settings(userId: number) {
    const user = await this.requireUser(userId);
    const pending = await this.deps.codes.pending(userId, 'email_change');
    return toSettings(user, pending?.new_email ?? null);
  }

  async updateSettings(userId: number, changes: SettingsUpdate) {
    const before = await this.requireUser(userId);
    const { language, ...switches } = changes;
    const set = {
      ...Object.fromEntries(Object.entries(switches).map(([k, v]) => [k, v ? 1 : 0])),
      ...(language !== undefined ? { language } : {}),
    };
    await usersRepo.updateUser(this.deps.db, userId, set);
    // Online Status turned on or off: the people who share a chat see it at once (a presence frame).
    if (changes.online_status !== undefined && changes.online_status !== Boolean(before.online_status))
      this.deps.events.emit('presence.changed', { userId, switched: true });
    return this.settings(userId);
  }

  async requestEmailChange(userId: number, newEmailRaw: string) {
    const user = await this.requireUser(userId);
    const email = newEmailRaw.toLowerCase();
    if (email === user.email) throw new FieldsError({ email: ['This is already your email address.'] });
    if (await usersRepo.findUserByEmail(this.deps.db, email))
      throw new FieldsError({ email: [MSG.emailTaken] });
    await limitMailTo(this.deps.limiter, 'email_change', email);
    const code = await this.deps.codes.issue(userId, 'email_change', email);
    await this.deps.mailer.send(codeMail(email, 'emailChange', code, textsIn(mailLocale(user))));
    return {
      requires_verification: true,
      pending_email: email,
      message: 'A verification code has been sent to your new email.',
    };
  }

  async confirmEmailChange(userId: number, code: string) {
    const { db, codes } = this.deps;
    const user = await this.requireUser(userId);
    const row = await codes.check(userId, 'email_change', code);
    const email = row.new_email;
    if (!email) throw new BadRequestError(MSG.invalidCode);
    const updated = await db.transaction().execute(async (trx) => {
      // Taken since the code was sent: refused, and the code is left for nothing (a new request replaces it).
      if (await usersRepo.findUserByEmail(trx, email)) throw new FieldsError({ email: [MSG.emailTaken] });
      await codes.consume(trx, row);
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
    sendNotice(
      this.deps.mailer,
      this.deps.log,
      emailChangedNotice(user.email, email, textsIn(mailLocale(user))),
    );
    return { message: 'Email updated successfully.', user: toAuthUser(updated) };
  }

  /**
   * The owner's own deletion: only with their password (and a code while two-step sign-in is on), so a session
   * left open on a shared computer cannot end the account with one click.
   */
  async deleteOwnAccount(userId: number, proof: { password: string; code?: string }) {
    await this.deps.twoFactor.confirmOwner(userId, proof.password, proof.code);
    await this.deleteAccount(userId);
  }

  /** Deletes credentials, sessions and profile; every open session dies at once. */
  async deleteAccount(userId: number) {
    await this.requireUser(userId);
    await this.deps.events.emitAndWait('user.deleted', { userId });
    await usersRepo.deleteUser(this.deps.db, userId);
    this.deps.events.emit('account.deleted', { userId });
    this.deps.events.emit('sessions.revoked', { userId, sessionIds: 'all' });
  }
}
