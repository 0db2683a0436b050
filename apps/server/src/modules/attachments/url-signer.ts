import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database';
import { ensureSecret } from './attachments.repo';

const VALID_MS = 6 * 3600_000;
const STEP_MS = 3600_000;

/**
 * Signed, expiring file URLs: an <img> or <video> cannot send a bearer token, so the server hands members URLs
 * that only it can make. The key lives in the database so every process signs and checks alike.
 */
export class UrlSigner {
  private key: Buffer | null = null;
  constructor(private readonly db: Db) {}

  async init(): Promise<void> {
    const value = await ensureSecret(this.db, 'file_url_key', randomBytes(32).toString('hex'));
    this.key = Buffer.from(value, 'hex');
  }

  private mac(subject: string, exp: number): Buffer {
    if (!this.key) throw new Error('UrlSigner used before init()');
    return createHmac('sha256', this.key).update(`${subject}.${exp}`).digest();
  }

  /** Query string for `subject`; expiry rounded up to the hour so a URL stays the same (and cacheable) for a while. */
  sign(subject: string, now = Date.now()): string {
    const exp = Math.ceil((now + VALID_MS) / STEP_MS) * STEP_MS;
    return `exp=${exp}&sig=${this.mac(subject, exp).toString('base64url')}`;
  }

  verify(subject: string, exp: string | undefined, sig: string | undefined): boolean {
    const expiry = Number(exp);
    if (!Number.isFinite(expiry) || expiry < Date.now() || !sig) return false;
    const given = Buffer.from(sig, 'base64url');
    const expected = this.mac(subject, expiry);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
