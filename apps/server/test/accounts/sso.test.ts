import { createHash } from 'node:crypto';
import { AUDIT, SSO_MSG, TOTP_MSG } from '@parley/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD } from '../helpers/factories';
import { type OidcTestProvider, type ProviderAccount, startOidcProvider } from '../helpers/oidc-provider';
import { CookieJar, landing, throughProvider } from '../helpers/sso-browser';
import { type Json, type TestApp, useTestApp } from '../helpers/test-app';
import { twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';
import { enableTwoStep } from '../safety-account/account-helpers';

// Single sign-on against a real OpenID provider (oidc-provider, its own login pages) started here: the browser's
// part is played over HTTP (sso-browser.ts), from Parley's start route to the one-time code the web app trades.

let provider: OidcTestProvider;
// Filled once the provider listens; the apps read it as each test starts.
const env: Record<string, string> = { SIGNUPS_PER_IP_HOUR: '1000' };
beforeAll(async () => {
  provider = await startOidcProvider();
  Object.assign(env, provider.env());
});
afterAll(async () => {
  await provider?.close();
});

let logins = 0;
/** A login at the provider, new to this run, with these claims (a verified address of its own by default). */
const person = (claims: ProviderAccount = {}): string => {
  logins += 1;
  const login = `p${logins}${Math.random().toString(36).slice(2, 6)}`;
  provider.account(login, { email: `${login}@example.test`, email_verified: true, ...claims });
  return login;
};

/** A browser signing in with `login`: where Parley sends it back (the fragment's `sso` or `sso_error`). */
async function signIn(t: { baseUrl: string }, login: string, invite?: string): Promise<URLSearchParams> {
  const jar = new CookieJar();
  const query = invite ? `?invite=${invite}` : '';
  return landing(jar, await throughProvider(jar, `${t.baseUrl}/api/auth/oidc/start${query}`, login));
}

const exchange = (t: TestApp, code: string | null, totp_code?: string) =>
  t.post('/api/auth/oidc/exchange/', { code, ...(totp_code ? { totp_code } : {}) });

/** Signs in with `login` all the way: the exchange's answer, asserted 200 (the token and the user). */
async function signedIn(t: TestApp, login: string, invite?: string): Promise<Json> {
  const fragment = await signIn(t, login, invite);
  expect(fragment.get('sso_error')).toBeNull();
  const res = await exchange(t, fragment.get('sso'));
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** A new password set through the mailed reset code. */
async function setPassword(t: TestApp, email: string, password: string) {
  expect((await t.post('/api/users/password/reset/request/', { email })).status).toBe(200);
  const res = await t.post('/api/users/password/reset/confirm/', {
    email,
    verification_code: await t.codeFor(email),
    new_password: password,
  });
  expect(res.status, res.text).toBe(200);
}

describe('single sign-on', () => {
  const app = useTestApp({ env });
  beforeEach(() => provider.allow(app().baseUrl));

  it('is offered on the auth screen', async () => {
    const site = await app().get('/api/site/');
    expect(site.body).toMatchObject({
      sign_in_providers: [{ id: 'oidc', name: 'Test ID', start_url: '/api/auth/oidc/start' }],
      password_sign_in: true,
    });
  });

  it('makes a verified account from the claims at the first sign-in, and finds it at the next', async () => {
    const login = person({ given_name: 'Ada', family_name: 'Lovelace', preferred_username: 'Ada L.' });
    const first = await signedIn(app(), login);
    expect(first).toMatchObject({
      email: `${login}@example.test`,
      username: 'ada.l',
      first_name: 'Ada',
      last_name: 'Lovelace',
      displayname: 'Ada Lovelace',
      is_activated: true,
    });
    const profile = await app().get('/api/users/profile/', first.token);
    expect(profile.status).toBe(200);

    const again = await signedIn(app(), login);
    expect(again.id).toBe(first.id);
    expect(again.token).not.toBe(first.token);
    const users = await app().ctx.db.selectFrom('users').select('id').execute();
    expect(users).toHaveLength(1);

    // The first account on a fresh server is its site admin, and reads the log of both sign-ins.
    const audit = await app().get(`/api/admin/audit/?type=${AUDIT.ssoSignIn}`, first.token);
    expect(audit.body.results.map((e: Json) => [e.target.id, e.detail.created])).toEqual([
      [first.id, false],
      [first.id, true],
    ]);
  });

  it('signs into the account that has the address, which keeps its password', async () => {
    const existing = await app().signUpAndVerify();
    const login = person({ email: existing.payload.email.toUpperCase(), name: 'Someone Else' });
    const answer = await signedIn(app(), login);
    expect(answer).toMatchObject({ id: existing.user.id, username: existing.payload.username });
    expect((await app().login(existing.payload.email, existing.payload.password)).status).toBe(200);
  });

  it('gives a new account a free username, from the address when the provider has none', async () => {
    await app().signUpAndVerify({ username: 'grace' });
    const taken = await signedIn(app(), person({ preferred_username: 'grace', name: 'Grace Hopper' }));
    expect(taken).toMatchObject({ username: 'grace2', first_name: 'Grace', last_name: 'Hopper' });
    const login = person({ email: 'g.hopper+navy@example.test' });
    expect(await signedIn(app(), login)).toMatchObject({
      username: 'g.hoppernavy',
      first_name: 'g.hoppernavy',
    });
  });

  it('refuses a wrong state, an answer without its cookie, and an answer used twice', async () => {
    const login = person();
    const jar = new CookieJar();
    const callback = await throughProvider(jar, `${app().baseUrl}/api/auth/oidc/start`, login);

    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state-parley-sent');
    // The flow is used up by the forged answer too: the real one cannot follow it.
    expect((await landing(jar, forged)).get('sso_error')).toBe('state');
    expect((await landing(jar, callback)).get('sso_error')).toBe('state');

    const jar2 = new CookieJar();
    const callback2 = await throughProvider(jar2, `${app().baseUrl}/api/auth/oidc/start`, login);
    // Another browser (the cookie is not there) cannot finish this one's sign-in.
    expect((await landing(new CookieJar(), callback2)).get('sso_error')).toBe('state');

    const jar3 = new CookieJar();
    const callback3 = await throughProvider(jar3, `${app().baseUrl}/api/auth/oidc/start`, login);
    const cookie = jar3.get('127.0.0.1', 'parley_sso') as string;
    expect((await landing(jar3, callback3)).get('sso')).toBeTruthy();
    jar3.set('127.0.0.1', 'parley_sso', cookie);
    expect((await landing(jar3, callback3)).get('sso_error')).toBe('state');
    const users = await app().ctx.db.selectFrom('users').select('id').execute();
    expect(users).toHaveLength(1);
  });

  it('refuses an address the provider has not verified, or none', async () => {
    expect((await signIn(app(), person({ email_verified: false }))).get('sso_error')).toBe('unverified');
    const noAddress = person();
    provider.account(noAddress, { email: undefined, email_verified: undefined });
    expect((await signIn(app(), noAddress)).get('sso_error')).toBe('unverified');
    expect(await app().ctx.db.selectFrom('users').select('id').execute()).toHaveLength(0);
    // Each is in the audit log, with the reason and no address.
    const failed = await app()
      .ctx.db.selectFrom('audit_events')
      .select('detail')
      .where('type', '=', AUDIT.ssoFailed)
      .execute();
    expect(failed.map((e) => JSON.parse(e.detail).reason)).toEqual(['unverified', 'unverified']);
    expect(JSON.stringify(failed)).not.toContain('@');
  });

  it("tells the provider's refusal", async () => {
    const jar = new CookieJar();
    const start = `${app().baseUrl}/api/auth/oidc/start`;
    const callback = await throughProvider(jar, start, person(), { cancel: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect((await landing(jar, callback)).get('sso_error')).toBe('refused');
  });

  it('still asks a person with two-step sign-in for the code', async () => {
    const existing = await app().signUpAndVerify();
    const { recoveryCodes } = await enableTwoStep(app(), existing.token);
    const fragment = await signIn(app(), person({ email: existing.payload.email }));
    const code = fragment.get('sso');

    const asked = await exchange(app(), code);
    expect(asked.status).toBe(401);
    expect(asked.body.detail).toMatchObject({ requires_totp: true });
    const wrong = await exchange(app(), code, '000000');
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain(TOTP_MSG.invalidCode);
    const right = await exchange(app(), code, recoveryCodes[0]);
    expect(right.status, right.text).toBe(200);
    expect(right.body.id).toBe(existing.user.id);
  });

  it('trades the one-time code once, and keeps only its hash', async () => {
    const code = (await signIn(app(), person())).get('sso') as string;
    const rows = await app().ctx.db.selectFrom('oidc_handoffs').selectAll().execute();
    expect(rows.map((r) => r.code_hash)).toEqual([createHash('sha256').update(code).digest('hex')]);
    expect((await exchange(app(), code)).status).toBe(200);
    const again = await exchange(app(), code);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: SSO_MSG.expired });
    expect((await exchange(app(), 'made-up')).status).toBe(400);
    expect(await app().ctx.db.selectFrom('oidc_handoffs').selectAll().execute()).toHaveLength(0);
  });

  it("verifies a stranger's waiting sign-up with the address, and drops its password", async () => {
    const waiting = await app().register();
    const answer = await signedIn(app(), person({ email: waiting.email }));
    expect(answer).toMatchObject({ username: waiting.username, is_activated: true });
    expect((await app().login(waiting.email, waiting.password)).status).toBe(400);
  });

  it('keeps to the sign-up policy: closed to newcomers, open to an invite link and to accounts', async () => {
    const admin = await signedIn(app(), person());
    const member = await app().signUpAndVerify();
    const closed = await app().put('/api/admin/settings/', { signups: 'closed' }, admin.token);
    expect(closed.status, closed.text).toBe(200);

    expect((await signIn(app(), person())).get('sso_error')).toBe('signups_closed');
    expect(await signedIn(app(), person({ email: member.payload.email }))).toMatchObject({
      id: member.user.id,
    });

    const invite = await app().post('/api/admin/settings/invites/', { max_uses: 1 }, admin.token);
    expect(invite.status, invite.text).toBe(201);
    const invited = await signedIn(app(), person(), invite.body.token);
    expect(invited.is_activated).toBe(true);
    expect((await signIn(app(), person(), invite.body.token)).get('sso_error')).toBe('invite');
  });

  it('refuses a deactivated account', async () => {
    const admin = await signedIn(app(), person());
    const login = person();
    const target = await signedIn(app(), login);
    const off = await app().post(`/api/admin/users/${target.id}/deactivate/`, {}, admin.token);
    expect(off.status, off.text).toBe(200);
    expect((await signIn(app(), login)).get('sso_error')).toBe('deactivated');
  });
});

describe('a provider that cannot be reached', () => {
  const app = useTestApp({
    env: { OIDC_ISSUER: 'http://127.0.0.1:9', OIDC_CLIENT_ID: 'parley', OIDC_CLIENT_SECRET: 'secret' },
  });

  it('sends the browser back with the reason, and a later sign-in tries it again', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${app().baseUrl}/api/auth/oidc/start`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/login#sso_error=provider');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });
});

describe('OIDC_ONLY', () => {
  const app = useTestApp({ env });
  beforeAll(() => {
    env.OIDC_ONLY = 'true';
  });
  afterAll(() => {
    delete env.OIDC_ONLY;
  });
  beforeEach(() => provider.allow(app().baseUrl));

  it('turns password sign-up and sign-in off for all but site admins', async () => {
    const site = await app().get('/api/site/');
    expect(site.body).toMatchObject({ password_sign_in: false, sign_in_providers: [{ name: 'Test ID' }] });
    const signup = await app().post('/api/users/register/', {
      first_name: 'Pat',
      last_name: 'Doe',
      username: 'patdoe',
      email: 'pat@example.test',
      password: GOOD_PASSWORD,
    });
    expect(signup.status).toBe(403);
    expect(signup.body).toEqual({ detail: SSO_MSG.signUpOff.replace('{name}', 'Test ID') });

    // The first account, made by signing in, is the site admin; with a password set it may use it.
    const adminLogin = person();
    const admin = await signedIn(app(), adminLogin);
    expect(admin.is_site_admin).toBe(true);
    await setPassword(app(), admin.email, GOOD_PASSWORD);
    expect((await app().login(admin.email, GOOD_PASSWORD)).status).toBe(200);

    const someone = await signedIn(app(), person());
    await setPassword(app(), someone.email, GOOD_PASSWORD);
    const refused = await app().login(someone.email, GOOD_PASSWORD);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: SSO_MSG.passwordsOff.replace('{name}', 'Test ID') });
    // A wrong password is told as anywhere else.
    expect((await app().login(someone.email, 'not the password at all')).status).toBe(400);
  });
});

describe.skipIf(!twoProcessesEnabled)('single sign-on across two processes', () => {
  // Both processes answer at one public address; the browser's requests reach either.
  const publicUrl = 'http://parley.test';
  const twoEnv: Record<string, string> = { PUBLIC_URL: publicUrl };
  beforeAll(() => {
    Object.assign(twoEnv, provider.env());
    provider.allow(publicUrl);
  });
  const procs = useTwoProcesses(twoEnv);

  it('starts on one process and finishes on the other', async () => {
    const { a, b } = procs();
    const jar = new CookieJar();
    const callback = await throughProvider(jar, `${a.baseUrl}/api/auth/oidc/start`, person());
    expect(callback.origin).toBe(publicUrl);
    const fragment = await landing(jar, new URL(`${b.baseUrl}${callback.pathname}${callback.search}`));
    const code = fragment.get('sso');
    expect(code, fragment.toString()).toBeTruthy();
    const res = await a.post('/api/auth/oidc/exchange/', { code });
    expect(res.status, res.text).toBe(200);
    expect((await b.get('/api/users/profile/', res.body.token)).status).toBe(200);
  });
});
