import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '../../config';

// The server's VAPID key pair: made once into DATA_DIR/vapid.json and reused, because every browser's
// subscription is bound to the public key it was made with (new keys would silence them all).

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const isKeys = (v: unknown): v is VapidKeys =>
  !!v &&
  typeof (v as VapidKeys).publicKey === 'string' &&
  typeof (v as VapidKeys).privateKey === 'string' &&
  Buffer.from((v as VapidKeys).publicKey, 'base64url').length === 65 &&
  Buffer.from((v as VapidKeys).privateKey, 'base64url').length === 32;

async function readKeys(file: string): Promise<VapidKeys | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const parsed: unknown = JSON.parse(text);
  // A damaged file is an operator's problem to look at; silently replacing it would orphan every subscription.
  if (!isKeys(parsed)) throw new Error(`${file} does not hold a VAPID key pair`);
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}

/** Reads DATA_DIR/vapid.json, or creates it (readable by the owner only) on first start. */
export async function loadVapidKeys(dataDir: string): Promise<VapidKeys> {
  const file = path.join(dataDir, 'vapid.json');
  const existing = await readKeys(file);
  if (existing) return existing;
  await fs.mkdir(dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  // Written aside and linked into place: the link fails if another process got there first, and nobody
  // ever reads a half-written file. Whoever lost the race reads the winner's keys.
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await fs.writeFile(temp, JSON.stringify(keys, null, 2), { mode: 0o600 });
  try {
    await fs.link(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await fs.rm(temp, { force: true });
  }
  const stored = await readKeys(file);
  if (!stored) throw new Error(`${file} vanished while being created`);
  return stored;
}

/** The contact push services may use: the public https address, else the sender address of the mails. */
export function vapidSubject(config: Config): string {
  if (config.publicUrl?.startsWith('https://')) return config.publicUrl;
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom.trim();
  return `mailto:${address}`;
}
