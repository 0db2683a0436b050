import { MSG } from '@parley/protocol';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CodeService } from '../../src/modules/accounts/code.service';
import { hashToken } from '../../src/modules/accounts/session.service';
import { newEmail } from '../helpers/factories';
import { type TestApp, useTestApp } from '../helpers/test-app';

// DESIGN §7: every state change is one transaction, and a code is single use. A code is checked first (a wrong
// one counts at once), then used up in the same transaction as the change it allows: two requests with one
// code make one change, and a change that fails leaves the code and everything else as they were.
const app = useTestApp();

const sessionsOf = async (t: TestApp, userId: number) =>
  (await t.ctx.db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute()).map(
    (r) => r.token_hash,
  );
const codesOf = (t: TestApp, userId: number) =>
  t.ctx.db.selectFrom('codes').select(['purpose', 'attempts']).where('user_id', '=', userId).execute();
const userByEmail = (t: TestApp, email: string) =>
  t.ctx.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();

/**
 * Makes a kind of write fail in the database (a trigger named `name`, e.g. `BEFORE INSERT ON codes`), or stop
 * failing.
 */
async function failWrites(t: TestApp, name: string, when: string, table: string, on: boolean) {
  const db = t.ctx.db;
  const trigger = sql.raw(name);
  const target = sql.table(table);
  const event = sql.raw(when);
  await t.withDdlLock(async () => {
    if (t.ctx.dialect === 'sqlite') {
      if (on)
        await sql`CREATE TRIGGER ${trigger} BEFORE ${event} ON ${target}
          BEGIN SELECT RAISE(ABORT, 'injected failure'); END`.execute(db);
      else await sql`DROP TRIGGER ${trigger}`.execute(db);
    } else if (on) {
      await sql`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS
          $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`.execute(db);
      await sql`CREATE TRIGGER ${trigger} BEFORE ${event} ON ${target}
          FOR EACH ROW EXECUTE FUNCTION ${trigger}()`.execute(db);
    } else {
      await sql`DROP TRIGGER ${trigger} ON ${target}`.execute(db);
      await sql`DROP FUNCTION ${trigger}()`.execute(db);
    }
  });
}

/** Makes every insert of a code fail, or stop failing. */
const failCodeInserts = (t: TestApp, on: boolean) =>
  failWrites(t, 'fail_insert_codes', 'INSERT', 'codes', on);

/** Makes every update of a password hash fail, or stop failing. */
const failPasswordUpdates = (t: TestApp, on: boolean) =>
  failWrites(t, 'fail_password', 'UPDATE OF password_hash', 'users', on);

describe('codes used up in the change they allow', () => {
  it('sign-up: the same code sent twice at once verifies once and opens one session', async () => {
    const t = app();
    const payload = await t.register();
    const code = await t.codeFor(payload.email);
    const verify = () =>
      t.post('/api/users/email/verify/signup/', { email: payload.email, verification_code: code });

    const answers = await Promise.all([verify(), verify(), verify()]);
    const ok = answers.filter((r) => r.status === 200);
    expect(ok, JSON.stringify(answers.map((r) => [r.status, r.body]))).toHaveLength(1);
    for (const r of answers.filter((a) => a.status !== 200)) {
      expect(r.status).toBe(400);
      expect([MSG.invalidCode, MSG.alreadyVerified]).toContain(r.body.detail);
    }
    const user = await userByEmail(t, payload.email);
    expect(user.is_activated).toBeTruthy();
    expect(await sessionsOf(t, user.id)).toEqual([hashToken(ok[0]?.body.token as string)]);
    expect(await codesOf(t, user.id)).toEqual([]);
  });

  it('sign-up: the account and its code are written together, or neither is', async () => {
    const t = app();
    // The code cannot be stored: the sign-up fails whole, and the name and address stay free.
    await failCodeInserts(t, true);
    const account = {
      first_name: 'Ada',
      last_name: 'Tester',
      username: `ada_${Date.now().toString(36)}`,
      email: newEmail('atomic'),
      password: 'a-long-enough-secret-1',
    };
    const failed = await t.post('/api/users/register/', account);
    expect(failed.status).toBe(500);
    expect(
      await t.ctx.db.selectFrom('users').select('id').where('email', '=', account.email).execute(),
    ).toEqual([]);
    await failCodeInserts(t, false);
    expect((await t.post('/api/users/register/', account)).status).toBe(200);
    const user = await userByEmail(t, account.email);
    expect(await codesOf(t, user.id)).toEqual([{ purpose: 'signup', attempts: 0 }]);
  });

  it('a code replaced by a newer one after it was checked is not used up, and changes nothing', async () => {
    const t = app();
    const { user } = await t.signUpAndVerify();
    const codes = new CodeService({ db: t.ctx.db, audit: t.ctx.audit });
    const first = await codes.issue(user.id, 'email_change', newEmail('first'));
    const checked = await codes.check(user.id, 'email_change', first);
    const second = await codes.issue(user.id, 'email_change', newEmail('second'));

    await expect(t.ctx.db.transaction().execute((trx) => codes.consume(trx, checked))).rejects.toThrow(
      MSG.invalidCode,
    );
    // The newer code is untouched and still works.
    expect(await codesOf(t, user.id)).toEqual([{ purpose: 'email_change', attempts: 0 }]);
    expect((await codes.check(user.id, 'email_change', second)).new_email).toMatch(/^second/);
  });

  it('guesses sent all at once get no more than 5 wrong tries between them', async () => {
    const t = app();
    const payload = await t.register();
    const code = await t.codeFor(payload.email);
    const wrong = Array.from({ length: 20 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    // Straight to the checker, all at once: every look-up is under way before any try is counted.
    const user = await userByEmail(t, payload.email);
    const codes = new CodeService({ db: t.ctx.db, audit: t.ctx.audit });
    const answers = await Promise.allSettled(wrong.map((guess) => codes.check(user.id, 'signup', guess)));
    const details = answers.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'accepted'));
    expect(details.filter((d) => d === MSG.invalidCode).length).toBeLessThanOrEqual(4);
    expect(details.filter((d) => d !== MSG.invalidCode && d !== MSG.codeLocked)).toEqual([]);
    expect(await codesOf(t, user.id)).toEqual([{ purpose: 'signup', attempts: 5 }]);
    // Locked: the right code no longer opens it.
    const right = await t.post('/api/users/email/verify/signup/', {
      email: payload.email,
      verification_code: code,
    });
    expect(right.body).toEqual({ detail: MSG.codeLocked });
  });

  it('password reset: one code confirmed twice at once sets one password and ends every session once', async () => {
    const t = app();
    const { payload, token, user } = await t.signUpAndVerify();
    expect((await t.post('/api/users/password/reset/request/', { email: payload.email })).status).toBe(200);
    const code = await t.codeFor(payload.email, { subject: /reset/i });
    const confirm = (newPassword: string) =>
      t.post('/api/users/password/reset/confirm/', {
        email: payload.email,
        verification_code: code,
        new_password: newPassword,
      });

    const answers = await Promise.all([confirm('first-new-secret-1'), confirm('second-new-secret-2')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(answers.find((r) => r.status === 400)?.body).toEqual({ detail: MSG.invalidCode });
    const won = answers[0]?.status === 200 ? 'first-new-secret-1' : 'second-new-secret-2';
    const lost = won === 'first-new-secret-1' ? 'second-new-secret-2' : 'first-new-secret-1';

    expect(await sessionsOf(t, user.id)).toEqual([]);
    expect((await t.get('/api/users/profile/', token)).status).toBe(401);
    expect((await t.login(payload.email, lost)).status).toBe(400);
    expect((await t.login(payload.email, won)).status).toBe(200);
    await t.mail.waitFor(payload.email, { subject: /password was changed/ });
    expect(t.mail.to(payload.email, /password was changed/)).toHaveLength(1);
  });

  it('password reset: a write that fails part way leaves the code, the password and the sessions as they were', async () => {
    const t = app();
    const { payload, token, user } = await t.signUpAndVerify();
    await t.post('/api/users/password/reset/request/', { email: payload.email });
    const code = await t.codeFor(payload.email, { subject: /reset/i });
    const confirm = () =>
      t.post('/api/users/password/reset/confirm/', {
        email: payload.email,
        verification_code: code,
        new_password: 'a-fine-new-secret-3',
      });

    // The password update fails inside the transaction, after the code was used up in it.
    await failPasswordUpdates(t, true);
    const failed = await confirm();
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ detail: expect.any(String) });
    expect(await codesOf(t, user.id)).toEqual([{ purpose: 'reset', attempts: 0 }]);
    expect(await sessionsOf(t, user.id)).toEqual([hashToken(token)]);
    expect((await t.get('/api/users/profile/', token)).status).toBe(200);
    expect((await t.login(payload.email, payload.password)).status).toBe(200);
    expect(t.mail.to(payload.email, /password was changed/)).toEqual([]);

    await failPasswordUpdates(t, false);
    expect((await confirm()).status).toBe(200);
    expect((await t.login(payload.email, 'a-fine-new-secret-3')).status).toBe(200);
  });

  it('email change: an address taken before confirmation changes nothing and uses nothing up', async () => {
    const t = app();
    const a = await t.signUpAndVerify();
    const wanted = newEmail('contested');
    expect((await t.put('/api/users/email/update/', { email: wanted }, a.token)).status).toBe(200);
    const code = await t.codeFor(wanted);
    await t.register({ email: wanted });

    const res = await t.post('/api/users/email/verify/code/', { verification_code: code }, a.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ email: [MSG.emailTaken] });
    expect((await t.get('/api/users/profile/', a.token)).body.email).toBe(a.payload.email);
    expect(await codesOf(t, a.user.id)).toEqual([{ purpose: 'email_change', attempts: 0 }]);
    // No notice to the old address: nothing changed.
    expect(t.mail.to(a.payload.email, /address was changed/)).toEqual([]);
  });

  it('email change: one code confirmed twice at once changes the address once and sends one notice', async () => {
    const t = app();
    const a = await t.signUpAndVerify();
    const wanted = newEmail('moving');
    await t.put('/api/users/email/update/', { email: wanted }, a.token);
    const code = await t.codeFor(wanted);
    const confirm = () => t.post('/api/users/email/verify/code/', { verification_code: code }, a.token);

    const answers = await Promise.all([confirm(), confirm()]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await t.get('/api/users/profile/', a.token)).body.email).toBe(wanted);
    expect(await codesOf(t, a.user.id)).toEqual([]);
    await t.mail.waitFor(a.payload.email, { subject: /address was changed/ });
    expect(t.mail.to(a.payload.email, /address was changed/)).toHaveLength(1);
  });
});
