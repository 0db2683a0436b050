import { describe, expect, it } from 'vitest';
import { newEmail, newRegistration } from '../helpers/factories';
import { type ApiResponse, useTestApp } from '../helpers/test-app';

// 429 with Retry-After (DESIGN §7): login failures, sign-up mails, reset mails, email-change mails.
const app = useTestApp();
const HOUR_S = 3600;

function expectTooMany(res: ApiResponse, maxSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ detail: expect.any(String) });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

describe('login failures', () => {
  it('answers 429 after 5 failures on one account, even to the right password', async () => {
    const { payload } = await app().signUpAndVerify();
    for (let i = 0; i < 5; i++) {
      expect((await app().login(payload.email, `wrong-${i}-password`)).status).toBe(400);
    }
    expectTooMany(await app().login(payload.email, payload.password), 30 * 60);
    expectTooMany(await app().login(payload.email.toUpperCase(), 'wrong-again'), 30 * 60);
  });

  it('counts per account: another account still logs in', async () => {
    const victim = await app().signUpAndVerify();
    const other = await app().signUpAndVerify();
    for (let i = 0; i < 5; i++) await app().login(victim.payload.email, 'wrong-password');
    expect((await app().login(victim.payload.email, victim.payload.password)).status).toBe(429);
    expect((await app().login(other.payload.email, other.payload.password)).status).toBe(200);
  });

  it('forgives earlier failures after a successful login', async () => {
    const { payload } = await app().signUpAndVerify();
    for (let i = 0; i < 4; i++) await app().login(payload.email, 'wrong-password');
    expect((await app().login(payload.email, payload.password)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await app().login(payload.email, 'wrong-password')).status).toBe(400);
    expect((await app().login(payload.email, payload.password)).status).toBe(200);
  });

  it('also limits failures for an address nobody has', async () => {
    const ghost = newEmail('ghost');
    for (let i = 0; i < 5; i++) expect((await app().login(ghost, 'wrong-password')).status).toBe(400);
    expectTooMany(await app().login(ghost, 'wrong-password'), 30 * 60);
  });
});

describe('mails to one address', () => {
  it('allows 2 sign-up mails an hour (register + resend), then 429', async () => {
    const payload = await app().register();
    expect((await app().post('/api/users/email/resend/signup/', { email: payload.email })).status).toBe(200);
    await app().mail.waitFor(payload.email, { count: 2 });

    const third = await app().post('/api/users/email/resend/signup/', { email: payload.email });
    expectTooMany(third, HOUR_S);
    expect(app().mail.to(payload.email)).toHaveLength(2);
    // The limit is per address, not per person: another address is unaffected.
    expect((await app().post('/api/users/register/', newRegistration())).status).toBe(200);
  });

  it('counts resends to an unknown address too (no enumeration through the limit)', async () => {
    const ghost = newEmail('ghost');
    for (let i = 0; i < 2; i++) {
      expect((await app().post('/api/users/email/resend/signup/', { email: ghost })).status).toBe(200);
    }
    expectTooMany(await app().post('/api/users/email/resend/signup/', { email: ghost }), HOUR_S);
  });

  it('allows 2 reset mails an hour, then 429, for known and unknown addresses alike', async () => {
    const { payload } = await app().signUpAndVerify();
    const ghost = newEmail('ghost');
    for (const email of [payload.email, ghost]) {
      for (let i = 1; i <= 2; i++) {
        expect((await app().post('/api/users/password/reset/request/', { email })).status).toBe(200);
        // One request at a time, as a person asks again only after the mail: the mail goes out after the answer.
        if (email === payload.email) await app().mail.waitFor(email, { subject: /reset/i, count: i });
      }
      expectTooMany(await app().post('/api/users/password/reset/request/', { email }), HOUR_S);
    }
    expect(app().mail.to(payload.email, /reset/i)).toHaveLength(2);
    expect(app().mail.to(ghost)).toHaveLength(0);
  });

  it('allows 2 email-change mails an hour to one new address', async () => {
    const { token } = await app().signUpAndVerify();
    const wanted = newEmail('moved');
    for (let i = 0; i < 2; i++) {
      expect((await app().put('/api/users/email/update/', { email: wanted }, token)).status).toBe(200);
    }
    expectTooMany(await app().put('/api/users/email/update/', { email: wanted }, token), HOUR_S);
    expect(app().mail.to(wanted)).toHaveLength(2);
  });
});

describe('per client address', () => {
  // Behind a proxy (TRUST_PROXY=true) X-Forwarded-For names the client, as a reverse proxy would set it.
  const app = useTestApp({ env: { TRUST_PROXY: 'true' } });
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('allows 30 registrations an hour from one address, then 429; another address is unaffected', async () => {
    for (let i = 0; i < 30; i++) {
      // Refused bodies count too: the limit guards the endpoint, not only successful sign-ups.
      const res = await app().request('POST', '/api/users/register/', {
        json: {},
        headers: from('203.0.113.7'),
      });
      expect(res.status).toBe(400);
    }
    const payload = newRegistration();
    expectTooMany(
      await app().request('POST', '/api/users/register/', { json: payload, headers: from('203.0.113.7') }),
      HOUR_S,
    );
    expect(app().mail.mails).toHaveLength(0);
    const elsewhere = await app().request('POST', '/api/users/register/', {
      json: payload,
      headers: from('198.51.100.9'),
    });
    expect(elsewhere.status).toBe(200);
  });

  it('answers 429 after 50 login failures from one address, across accounts', async () => {
    const { payload } = await app().signUpAndVerify();
    const login = (email: string, password: string, ip: string) =>
      app().request('POST', '/api/users/login/', { json: { email, password }, headers: from(ip) });
    for (let i = 0; i < 50; i++) {
      expect((await login(newEmail('spray'), 'wrong-password', '203.0.113.8')).status).toBe(400);
    }
    expectTooMany(await login(payload.email, payload.password, '203.0.113.8'), 30 * 60);
    expect((await login(payload.email, payload.password, '198.51.100.10')).status).toBe(200);
  });
});

describe('without a trusted proxy', () => {
  it('ignores X-Forwarded-For, so a client cannot dodge its address limit by inventing addresses', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await app().request('POST', '/api/users/register/', {
        json: {},
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
      });
      expect(res.status).toBe(400);
    }
    const blocked = await app().request('POST', '/api/users/register/', {
      json: {},
      headers: { 'x-forwarded-for': '198.51.100.250' },
    });
    expect(blocked.status).toBe(429);
  });
});
