import { AUDIT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { AccountActionsService } from '../../src/modules/admin/account-actions.service';
import { openMigratingDb } from '../helpers/migrating-db';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { auditOf } from './admin-helpers';

// The site-admin role of a fresh server goes to the first account whose email is verified, not to whoever
// registered first: an address nobody proved earns nothing. Two verifications at once make one admin (run on
// PostgreSQL too, where they really overlap), and an admin the operator made beforehand counts.
const app = useTestApp();

const verify = async (t: TestApp, email: string) =>
  t.post('/api/users/email/verify/signup/', { email, verification_code: await t.codeFor(email) });

describe('the first site admin', () => {
  it('is the first account verified, not the first registered', async () => {
    const early = await app().register({ first_name: 'Early' });
    const owner = await app().register({ first_name: 'Owner' });
    // Registered first and never verified: no role, even while nobody else has one.
    expect((await app().ctx.users.adminCounts()).admins).toBe(0);

    const verified = await verify(app(), owner.email);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.is_site_admin).toBe(true);
    const late = await verify(app(), early.email);
    expect(late.body.is_site_admin).toBe(false);
    expect((await app().login(early.email, early.password)).body.is_site_admin).toBe(false);
    expect((await app().get('/api/admin/users/', late.body.token)).status).toBe(404);

    const [granted, ...others] = await auditOf(app(), verified.body.token, AUDIT.adminGranted);
    expect(others).toEqual([]);
    expect(granted).toMatchObject({ actor: null, target: { id: verified.body.id }, detail: { first: true } });
  });

  it('is one account when several verify at once', async () => {
    const people = await Promise.all([1, 2, 3, 4].map(() => app().register()));
    const codes = await Promise.all(people.map((p) => app().codeFor(p.email)));
    const answers = await Promise.all(
      people.map((p, i) =>
        app().post('/api/users/email/verify/signup/', { email: p.email, verification_code: codes[i] }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.is_site_admin)).toHaveLength(1);
    expect(await app().ctx.users.adminCounts()).toMatchObject({ admins: 1, activated: 4 });
  });

  it('is nobody by verifying when the operator made an admin first', async () => {
    const operatorsOwn = await app().register({ first_name: 'Operator' });
    const row = await app().ctx.users.findByUsername(operatorsOwn.username);
    const { db, users, audit } = app().ctx;
    await new AccountActionsService({ db, users, audit }).setSiteAdmin(
      { actorId: null, userId: row!.id, note: '' },
      true,
    );
    const stranger = await app().signUpAndVerify();
    expect(stranger.user.is_site_admin).toBe(false);
    // The operator's account, verified later, keeps the role it was given.
    const own = await verify(app(), operatorsOwn.email);
    expect(own.body.is_site_admin).toBe(true);
    expect((await app().ctx.users.adminCounts()).admins).toBe(1);
  });

  it('is not handed on by verifying once the first admin has left', async () => {
    const first = await app().signUpAndVerify();
    const second = await app().signUpAndVerify();
    expect([first.user.is_site_admin, second.user.is_site_admin]).toEqual([true, false]);
    // The only admin deletes their account: people who verified before are still there, so nobody new
    // becomes one by verifying (the operator grants it).
    const gone = await app().deleteAccount(first.token, first.payload.password);
    expect(gone.status, gone.text).toBe(204);
    expect((await app().signUpAndVerify()).user.is_site_admin).toBe(false);
  });
});

describe('the upgrade to verified first admins', () => {
  it('takes the role from an unverified first account and keeps the operator’s grants', async () => {
    const { db, migrate, close } = await openMigratingDb('parley-first-admin-');
    try {
      await migrate('0012-reply-index');
      const now = new Date().toISOString();
      const person = (username: string, activated: 0 | 1) =>
        db
          .insertInto('users')
          .values({
            username,
            email: `${username}@example.test`,
            password_hash: 'x',
            first_name: username,
            last_name: 'L',
            displayname: username,
            date_joined: now,
            is_activated: activated,
            is_site_admin: 1,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      const granted = (id: number, detail: object) =>
        db
          .insertInto('audit_events')
          .values({
            type: AUDIT.adminGranted,
            target_id: id,
            detail: JSON.stringify(detail),
            created_at: now,
          })
          .execute();
      const squatter = await person('squatter', 0);
      await granted(squatter.id, { first: true });
      const firstVerified = await person('verified', 1);
      await granted(firstVerified.id, { first: true });
      const operatorMade = await person('pending_op', 0);
      await granted(operatorMade.id, { username: 'pending_op', by: 'command line' });

      await migrate();

      const admins = await db
        .selectFrom('users')
        .select(['username', 'is_site_admin'])
        .orderBy('id')
        .execute();
      expect(admins).toEqual([
        { username: 'squatter', is_site_admin: 0 },
        { username: 'verified', is_site_admin: 1 },
        { username: 'pending_op', is_site_admin: 1 },
      ]);
      const revoked = await db
        .selectFrom('audit_events')
        .select(['target_id', 'actor_id', 'detail'])
        .where('type', '=', AUDIT.adminRevoked)
        .execute();
      expect(revoked).toEqual([
        {
          target_id: squatter.id,
          actor_id: null,
          detail: JSON.stringify({ username: 'squatter', reason: 'email never verified' }),
        },
      ]);
    } finally {
      await close();
    }
  });
});
