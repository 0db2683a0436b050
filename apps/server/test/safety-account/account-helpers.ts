import { generate } from 'otplib';
import { expect } from 'vitest';
import type { Json, SignedUp, TestApp } from '../helpers/test-app';

// What the account-security tests share: signing in from a named browser, and codes made from a secret as an
// authenticator app makes them.

export const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
export const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';

/** Logs in with this User-Agent (and a second-step code when given), asserting `status`; the answer's body. */
export async function loginFrom(
  t: TestApp,
  who: SignedUp,
  userAgent: string,
  extra: { totp_code?: string } = {},
  status = 200,
): Promise<Json> {
  const res = await t.request('POST', '/api/users/login/', {
    json: { email: who.payload.email, password: who.payload.password, ...extra },
    headers: { 'user-agent': userAgent },
  });
  expect(res.status, res.text).toBe(status);
  return res.body;
}

/** The app's code for the time step `stepsAhead` steps from now (a step already used is refused). */
export const codeFor = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/** Sets up and turns on two-step sign-in for a person; the secret and the recovery codes. */
export async function enableTwoStep(t: TestApp, token: string) {
  const setup = await t.post('/api/users/2fa/setup/', {}, token);
  expect(setup.status, setup.text).toBe(200);
  const secret = setup.body.secret as string;
  const enabled = await t.post('/api/users/2fa/enable/', { code: await codeFor(secret) }, token);
  expect(enabled.status, enabled.text).toBe(200);
  return { secret, recoveryCodes: enabled.body.recovery_codes as string[] };
}
