import { MSG } from '@parley/protocol';
import argon2 from 'argon2';
import { FieldsError } from '../../platform/errors';
import { isCommonPassword } from './common-passwords';

/**
 * Passwords for sign-up, sign-in and reset: hashed with argon2id at the configured memory cost, and refused
 * when they are among the most common ones. One instance serves the app.
 */
export class Passwords {
  private readonly options;
  /** A real hash to verify against when the email is unknown, so both answers take the same time. */
  private readonly dummyHash: Promise<string>;

  constructor(memoryKiB: number) {
    this.options = { type: argon2.argon2id as 2, memoryCost: memoryKiB, timeCost: 2, parallelism: 1 };
    this.dummyHash = argon2.hash('parley-dummy-password', this.options);
  }

  async hash(password: string): Promise<string> {
    return String(await argon2.hash(password, this.options));
  }

  /** Whether the password is the one hashed; with no hash (an unknown email) the same work is done, and false. */
  async matches(hash: string | undefined, password: string): Promise<boolean> {
    if (hash !== undefined) return argon2.verify(hash, password);
    await argon2.verify(await this.dummyHash, password);
    return false;
  }

  /** Refuses a password too common to keep, under the form's field of that name. */
  assertAllowed(password: string, field: string): void {
    if (isCommonPassword(password)) throw new FieldsError({ [field]: [MSG.passwordTooCommon] });
  }
}
