import { randomBytes } from 'node:crypto';
import { GOOD_PASSWORD } from '@parley/fixtures';
import type { RegisterPayload } from '@parley/protocol';

// Fresh, unique test data: every call gives a new person, so tests never share rows or rate-limit keys.

let counter = 0;

/** The password of every registration made here and of the seeded people (@parley/fixtures). */
export { GOOD_PASSWORD };

export function newRegistration(overrides: Partial<RegisterPayload> = {}): RegisterPayload {
  counter += 1;
  const tag = `${counter}${randomBytes(3).toString('hex')}`;
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    username: `ada_${tag}`,
    email: `ada.${tag}@example.test`,
    password: GOOD_PASSWORD,
    ...overrides,
  };
}

/** A unique address nobody has registered. */
export const newEmail = (prefix = 'nobody'): string =>
  `${prefix}.${++counter}${randomBytes(3).toString('hex')}@example.test`;

/** A 6-digit code that is certainly not `code`. */
export const wrongCode = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** The 6-digit code in a mail body. */
export function extractCode(text: string): string {
  const match = /(?<!\d)(\d{6})(?!\d)/.exec(text);
  if (!match?.[1]) throw new Error(`No 6-digit code in mail: ${JSON.stringify(text)}`);
  return match[1];
}
