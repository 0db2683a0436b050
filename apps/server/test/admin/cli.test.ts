import { AUDIT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { operatorEnvOf, runOperatorCli } from '../helpers/operator-cli';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { adminAndPeople, auditOf } from './admin-helpers';

// The operator's commands that change people (`npm run admin -- verify|unverify|grant-admin|revoke-admin`), run
// as the operator runs them, against the live app's database (on PostgreSQL, the test's own schema). They call
// the admin API's own service, so the audit log records each change as the console does, with the operator as
// actor: no account (null) and `by: 'command line'`.
const app = useTestApp();
const operator = (t: TestApp, ...args: string[]) => runOperatorCli(operatorEnvOf(t), ...args);
// Each run starts a TypeScript process: slow on a busy machine.
const SLOW = { timeout: 240_000 };

describe('npm run admin -- grant-admin|revoke-admin <username>', () => {
  it('grants and revokes the site-admin role, and the audit log says so', SLOW, async () => {
    const { admin: first, people } = await adminAndPeople(app(), 1);
    const p = people[0]!;
    expect((await app().get('/api/admin/users/', p.token)).status).toBe(404);

    const grant = await operator(app(), 'grant-admin', p.user.username.toUpperCase());
    expect(grant.stderr).toBe('');
    expect(grant).toMatchObject({ code: 0 });
    expect(grant.stdout).toContain(`${p.user.username} is now a site admin.`);
    expect((await app().get('/api/admin/users/', p.token)).status).toBe(200);
    expect((await app().login(p.payload.email, p.payload.password)).body.is_site_admin).toBe(true);

    const revoke = await operator(app(), 'revoke-admin', first.user.username);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect((await app().get('/api/admin/users/', first.token)).status).toBe(404);

    const [granted] = await auditOf(app(), p.token, AUDIT.adminGranted);
    expect(granted).toEqual({
      id: expect.any(Number),
      type: AUDIT.adminGranted,
      actor: null,
      target: { id: p.user.id, username: p.user.username },
      at: expect.any(String),
      detail: { username: p.user.username, by: 'command line' },
    });
    const [revoked] = await auditOf(app(), p.token, AUDIT.adminRevoked);
    expect(revoked).toMatchObject({
      actor: null,
      target: { id: first.user.id },
      detail: { username: first.user.username, by: 'command line' },
    });
  });

  it('says so for an unknown user or a missing name, and records nothing', SLOW, async () => {
    const { admin } = await adminAndPeople(app(), 0);
    const unknown = await operator(app(), 'grant-admin', 'nobody_at_all');
    expect(unknown.code, unknown.stderr).toBe(1);
    expect(unknown.stderr).toContain('No user named nobody_at_all.');
    // Only the first account's own grant.
    expect(await auditOf(app(), admin.token, AUDIT.adminGranted)).toMatchObject([
      { detail: { first: true } },
    ]);
    const usage = await operator(app(), 'revoke-admin');
    expect(usage.code, usage.stderr).toBe(2);
    expect(usage.stderr).toContain('Usage');
  });
});

describe('npm run admin -- verify|unverify <username>', () => {
  it('leaves the audit record the admin API leaves, the operator as its actor', SLOW, async () => {
    const { admin, people } = await adminAndPeople(app(), 2);
    const [byConsole, byCommand] = people as [(typeof people)[0], (typeof people)[0]];

    const on = await app().post(`/api/admin/users/${byConsole.user.id}/verify/`, {}, admin.token);
    expect(on.status, on.text).toBe(200);
    const verify = await operator(app(), 'verify', byCommand.user.username);
    expect(verify.code, verify.stderr).toBe(0);
    expect(
      (await app().get(`/api/admin/users/${byCommand.user.id}/`, admin.token)).body.is_blue_verified,
    ).toBe(true);

    const verified = await auditOf(app(), admin.token, AUDIT.userVerified);
    const ofConsole = verified.find((e) => e.target?.id === byConsole.user.id);
    const ofCommand = verified.find((e) => e.target?.id === byCommand.user.id);
    expect(ofConsole).toMatchObject({
      actor: { id: admin.user.id, username: admin.user.username },
      target: { id: byConsole.user.id, username: byConsole.user.username },
      detail: { username: byConsole.user.username },
    });
    // The same record but for who acted: no account, and the door it came through.
    expect(ofCommand).toMatchObject({
      type: AUDIT.userVerified,
      actor: null,
      target: { id: byCommand.user.id, username: byCommand.user.username },
      detail: { username: byCommand.user.username, by: 'command line' },
    });
    expect(Object.keys(ofConsole?.detail ?? {})).toEqual(['username']);
    expect(Object.keys(ofCommand?.detail ?? {}).sort()).toEqual(['by', 'username']);

    const unverify = await operator(app(), 'unverify', byCommand.user.username);
    expect(unverify.code, unverify.stderr).toBe(0);
    const [unverified] = await auditOf(app(), admin.token, AUDIT.userUnverified);
    expect(unverified).toMatchObject({
      actor: null,
      target: { id: byCommand.user.id },
      detail: { username: byCommand.user.username, by: 'command line' },
    });
    expect(
      (await app().get(`/api/admin/users/${byCommand.user.id}/`, admin.token)).body.is_blue_verified,
    ).toBe(false);
  });
});
