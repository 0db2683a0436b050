import { createHmac, timingSafeEqual } from 'node:crypto';

// How Parley signs what it POSTs to a bot, and how a bot checks it: `v1=` and the hex HMAC-SHA256 of
// "{timestamp}.{raw body}" with the bot's signing secret. The timestamp (Unix seconds) is signed too, so a
// receiver that refuses old timestamps cannot be replayed to.

export const signatureOf = (secret: string, timestamp: string, rawBody: string): string =>
  `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;

/** What a receiver does (the tests' local bots, docs/API.md): recompute and compare in constant time. */
export function signatureHolds(
  secret: string,
  timestamp: string,
  rawBody: string,
  signature: string,
): boolean {
  const expected = Buffer.from(signatureOf(secret, timestamp, rawBody));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
