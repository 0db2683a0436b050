import { randomInt } from 'node:crypto';
import {
  RECOVERY_CODE_COUNT,
  SECURITY_AUDIT,
  TOTP_DIGITS,
  TOTP_LOCK_MINUTES,
  TOTP_MAX_ATTEMPTS,
  TOTP_MSG,
  TOTP_PERIOD_SECONDS,
  type TotpEnabled,
  type TotpRequiredDetail,
  type TotpSetup,
  type TotpStatus,
} from '@parley/protocol';
import argon2 from 'argon2';
import { generateSecret, generateURI, verify } from 'otplib';
import type { Db } from '../../db/database';
import { BadRequestError, ConflictError, FieldsError, HttpError } from '../../platform/errors';
import type { AuditService } from '../audit/audit.service';
import type { SecretBox } from './secret-box';
import * as repo from './two-factor.repo';
import * as usersRepo from './users.repo';

const ISSUER = 'Parley';
/** Recovery codes: 12 characters of 32 easily told apart (no l, no o; the pattern in the protocol allows them). */
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const SIX_DIGITS = /^\d{6}$/;

const newRecoveryCode = (): string => {
  let code = '';
  for (let i = 0; i < 12; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
};
const normalRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]+/g, '');

type Factor = NonNullable<Awaited<ReturnType<typeof repo.findFactor>>>;

interface Deps {
  db: Db;
  box: SecretBox;
  audit: Pick<AuditService, 'record'>;
}

/**
 * Two-step sign-in with time-based one-time codes (RFC 6238: SHA-1, 6 digits, 30 s, one step of drift either
 * way, each step accepted once) and ten single-use recovery codes. Wrong codes lock the second step as emailed
 * codes are locked (code.service.ts): each guess takes a try before it is compared, a right one clears them, and
 * the fifth wrong one locks it for 15 minutes.
 */
export class TwoFactorService {
  constructor(private readonly deps: Deps) {}

  async status(userId: number): Promise<TotpStatus> {
    const factor = await repo.findFactor(this.deps.db, userId);
    const enabled = Boolean(factor?.enabled_at);
    return { enabled, recovery_codes_left: enabled ? await repo.recoveryCodesLeft(this.deps.db, userId) : 0 };
  }

  async isEnabled(userId: number): Promise<boolean> {
    return Boolean((await repo.findFactor(this.deps.db, userId))?.enabled_at);
  }

  /** A new secret for the app (pending until a code from it turns the factor on); shown this once only. */
  async setup(userId: number): Promise<TotpSetup> {
    const user = await usersRepo.findUserById(this.deps.db, userId);
    if (!user) throw new HttpError(401, { detail: 'Invalid or expired token.' });
    const secret = generateSecret();
    const stored = await repo.putPendingFactor(this.deps.db, {
      user_id: userId,
      secret: this.deps.box.seal(secret, userId),
      created_at: new Date().toISOString(),
    });
    if (!stored) throw new ConflictError(TOTP_MSG.alreadyEnabled);
    return { secret, otpauth_url: generateURI({ issuer: ISSUER, label: user.email, secret }) };
  }

  /** Turns the pending factor on with a code from the app; the ten recovery codes, shown this once only. */
  async enable(userId: number, code: string): Promise<TotpEnabled> {
    const factor = await repo.findFactor(this.deps.db, userId);
    if (!factor) throw new BadRequestError(TOTP_MSG.notSetUp);
    if (factor.enabled_at) throw new ConflictError(TOTP_MSG.alreadyEnabled);
    const step = await this.checkCode(factor, code, { recovery: false, accept: false });
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.deps.db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      if (!(await repo.enableFactor(trx, userId, factor.secret, now, step ?? 0)))
        throw new BadRequestError(TOTP_MSG.notSetUp);
      const hashes = codes.map((c) => this.deps.box.digest(userId, normalRecoveryCode(c)));
      await repo.replaceRecoveryCodes(trx, userId, hashes, now);
      await this.deps.audit.record(
        { type: SECURITY_AUDIT.totpEnabled, actor_id: userId, target_id: userId },
        trx,
      );
    });
    return { recovery_codes: codes };
  }

  /** Turns two-step sign-in off: the password and a code (or a recovery code) both. */
  async disable(userId: number, password: string, code: string): Promise<void> {
    if (!(await this.isEnabled(userId))) throw new BadRequestError(TOTP_MSG.notEnabled);
    await this.confirmOwner(userId, password, code);
    await this.deps.db.transaction().execute(async (trx) => {
      await repo.deleteFactor(trx, userId);
      await this.deps.audit.record(
        { type: SECURITY_AUDIT.totpDisabled, actor_id: userId, target_id: userId },
        trx,
      );
    });
  }

  /**
   * Proves the account's owner is at the keyboard before a change that weakens or ends it (turning two-step
   * sign-in off, deleting the account): the password, and while two-step sign-in is on a code from the app or a
   * recovery code too, counted and locked as at sign-in. Refused by field: `password` or `code`.
   */
  async confirmOwner(userId: number, password: string, code: string | undefined): Promise<void> {
    const [factor, user] = await Promise.all([
      repo.findFactor(this.deps.db, userId),
      usersRepo.findUserById(this.deps.db, userId),
    ]);
    if (!user) throw new HttpError(401, { detail: 'Invalid or expired token.' });
    if (!(await argon2.verify(user.password_hash, password)))
      throw new FieldsError({ password: [TOTP_MSG.wrongPassword] });
    if (!factor?.enabled_at) return;
    if (!code) throw new FieldsError({ code: [TOTP_MSG.codeRequired] });
    await this.checkCode(factor, code, { recovery: true, accept: true });
  }

  /**
   * The second step of a sign-in whose password was right: nothing when the person has no factor on; without a
   * code, the 401 that asks for one; a wrong code is refused and counted.
   */
  async checkSignIn(userId: number, code: string | undefined, ip: string): Promise<void> {
    const factor = await repo.findFactor(this.deps.db, userId);
    if (!factor?.enabled_at) return;
    if (!code) {
      const detail: TotpRequiredDetail = { requires_totp: true, message: TOTP_MSG.codeRequired };
      throw new HttpError(401, { detail });
    }
    const step = await this.checkCode(factor, code, { recovery: true, accept: true, ip });
    if (step === null)
      await this.deps.audit.record({
        type: SECURITY_AUDIT.recoveryCodeUsed,
        actor_id: userId,
        target_id: userId,
        detail: { ip, left: await repo.recoveryCodesLeft(this.deps.db, userId) },
      });
  }

  /**
   * Checks a code under the lock: the time step it was right for (null for a recovery code, used up now), or a
   * 400 saying it is wrong or that the tries are used up. `accept` marks the step used (sign-in, turning off).
   */
  private async checkCode(
    factor: Factor,
    code: string,
    opts: { recovery: boolean; accept: boolean; ip?: string },
  ): Promise<number | null> {
    const userId = factor.user_id;
    const tries = await this.takeTry(userId, opts.ip);
    let step: number | null | undefined;
    if (SIX_DIGITS.test(code)) {
      const result = await verify({
        secret: this.deps.box.open(factor.secret, userId),
        token: code,
        digits: TOTP_DIGITS,
        period: TOTP_PERIOD_SECONDS,
        epochTolerance: TOTP_PERIOD_SECONDS,
      });
      const timeStep = result.valid && 'timeStep' in result ? result.timeStep : null;
      if (timeStep !== null && (!opts.accept || (await repo.acceptStep(this.deps.db, userId, timeStep))))
        step = timeStep;
    } else if (opts.recovery) {
      const hash = this.deps.box.digest(userId, normalRecoveryCode(code));
      if (await repo.useRecoveryCode(this.deps.db, userId, hash, new Date().toISOString())) step = null;
    }
    if (step !== undefined) {
      await repo.clearAttempts(this.deps.db, userId);
      return step;
    }
    const detail = opts.ip ? { ip: opts.ip } : {};
    await this.deps.audit.record({ type: SECURITY_AUDIT.totpFailed, target_id: userId, detail });
    if (tries < TOTP_MAX_ATTEMPTS) throw new BadRequestError(TOTP_MSG.invalidCode);
    await this.lock(userId, opts.ip);
    throw new BadRequestError(TOTP_MSG.locked);
  }

  /** Takes a try, ending a lock whose time is over first; a 400 while locked. */
  private async takeTry(userId: number, ip: string | undefined): Promise<number> {
    const tries = await repo.takeAttempt(this.deps.db, userId, TOTP_MAX_ATTEMPTS);
    if (tries !== undefined) return tries;
    if (await repo.unlockIfOver(this.deps.db, userId, new Date().toISOString())) {
      const again = await repo.takeAttempt(this.deps.db, userId, TOTP_MAX_ATTEMPTS);
      if (again !== undefined) return again;
    }
    // Out of tries with no lock recorded (the fifth wrong guess's lock was never written): lock now.
    await this.lock(userId, ip);
    throw new BadRequestError(TOTP_MSG.locked);
  }

  private async lock(userId: number, ip: string | undefined): Promise<void> {
    const until = new Date(Date.now() + TOTP_LOCK_MINUTES * 60_000).toISOString();
    const factor = await repo.findFactor(this.deps.db, userId);
    if (factor?.locked_until) return;
    await repo.lockFactor(this.deps.db, userId, until);
    await this.deps.audit.record({
      type: SECURITY_AUDIT.totpLocked,
      target_id: userId,
      detail: { until, ...(ip ? { ip } : {}) },
    });
  }
}
