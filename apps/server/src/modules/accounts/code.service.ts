import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { AUDIT, CODE_MAX_ATTEMPTS, CODE_TTL_MINUTES, MSG } from '@parley/protocol';
import type { Db } from '../../db/database';
import { BadRequestError } from '../../platform/errors';
import type { AuditService } from '../audit/audit.service';
import * as repo from './codes.repo';

const hashCode = (userId: number, purpose: string, code: string) =>
  createHash('sha256').update(`${userId}:${purpose}:${code}`).digest();

interface Deps {
  db: Db;
  /** Wrong codes and the lock they lead to are security events. */
  audit: Pick<AuditService, 'record'>;
}

/** Emailed 6-digit codes: CSPRNG, stored hashed, 15 minutes, single use, void after 5 wrong tries. */
export class CodeService {
  constructor(private readonly deps: Deps) {}

  /** A new code for the user and purpose, replacing the last; `db` may be the caller's transaction. */
  async issue(
    userId: number,
    purpose: repo.CodePurpose,
    newEmail: string | null = null,
    db: Db = this.deps.db,
  ): Promise<string> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = Date.now();
    await repo.upsertCode(db, {
      user_id: userId,
      purpose,
      code_hash: hashCode(userId, purpose, code).toString('hex'),
      new_email: newEmail,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + CODE_TTL_MINUTES * 60_000).toISOString(),
    });
    return code;
  }

  /**
   * Checks a code without using it up; a wrong one counts against the limit (at once, outside any transaction).
   * Each guess takes a try before it is compared and a right one gives it back, so however many guesses arrive
   * together, at most 5 wrong ones are ever compared. Returns the stored row (for its new_email and for
   * `consume`) or throws a 400 with the reason.
   */
  async check(userId: number, purpose: repo.CodePurpose, code: string) {
    const row = await repo.findCode(this.deps.db, userId, purpose);
    if (!row || row.expires_at <= new Date().toISOString()) throw new BadRequestError(MSG.invalidCode);
    const tries = await repo.takeAttempt(this.deps.db, row, CODE_MAX_ATTEMPTS);
    if (tries === undefined) {
      // No try left, or used or replaced since it was read.
      const now = await repo.findCode(this.deps.db, userId, purpose);
      throw new BadRequestError(
        now?.id === row.id && now.code_hash === row.code_hash ? MSG.codeLocked : MSG.invalidCode,
      );
    }
    const expected = Buffer.from(row.code_hash, 'hex');
    if (!timingSafeEqual(expected, hashCode(userId, purpose, code))) {
      const locked = tries >= CODE_MAX_ATTEMPTS;
      await this.deps.audit.record({ type: AUDIT.codeFailed, target_id: userId, detail: { purpose } });
      if (locked)
        await this.deps.audit.record({ type: AUDIT.codeLocked, target_id: userId, detail: { purpose } });
      throw new BadRequestError(locked ? MSG.codeLocked : MSG.invalidCode);
    }
    await repo.giveBackAttempt(this.deps.db, row);
    return row;
  }

  /**
   * Uses a checked code up, in the transaction that makes the change it allows: a code used by a request that
   * came first, or replaced by a newer one since it was checked, is refused, and the change is not made.
   */
  async consume(trx: Db, row: repo.CodeRef): Promise<void> {
    if (!(await repo.deleteCode(trx, row))) throw new BadRequestError(MSG.invalidCode);
  }

  async pending(userId: number, purpose: repo.CodePurpose) {
    const row = await repo.findCode(this.deps.db, userId, purpose);
    return row && row.expires_at > new Date().toISOString() && row.attempts < CODE_MAX_ATTEMPTS ? row : null;
  }
}
