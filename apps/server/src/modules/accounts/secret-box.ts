import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database';
import { ensureKey } from './two-factor.repo';

// The server key that seals two-step sign-in secrets (AES-256-GCM) and keys the recovery codes' hashes
// (HMAC-SHA-256). A sealed secret is bound to its person and never leaves the server again: no answer, log, audit
// entry or export carries it, and a column read by anything but this box is useless. The key is made once and
// kept in the database (account_keys), the one store every process of a scaled-out Parley shares for certain.

const KEY_NAME = 'totp-seal-v1';
const VERSION = 'v1';

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static async load(db: Db): Promise<SecretBox> {
    const key = Buffer.from(await ensureKey(db, KEY_NAME, randomBytes(32).toString('base64')), 'base64');
    // A damaged key is the operator's to look at: replacing it would turn off every person's second step.
    if (key.length !== 32) throw new Error(`account key ${KEY_NAME} is not a 32-byte key`);
    return new SecretBox(key);
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url; the person's id is bound in, so a sealed value cannot be moved. */
  seal(plain: string, userId: number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(String(userId)));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string, userId: number): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Unknown sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(String(userId)));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  /** A keyed hash of a recovery code, bound to its person. */
  digest(userId: number, code: string): string {
    return createHmac('sha256', this.key).update(`${userId}:${code}`).digest('hex');
  }
}
