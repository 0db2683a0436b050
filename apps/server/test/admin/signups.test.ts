import {
  AUDIT,
  INVITE_INVALID_MESSAGE,
  SIGNUP_DOMAIN_MESSAGE,
  SIGNUPS_CLOSED_MESSAGE,
} from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { newRegistration } from '../helpers/factories';
import { useTestApp } from '../helpers/test-app';
import { adminAndPeople, auditOf } from './admin-helpers';

// Server settings: sign-ups open, closed, or limited to email domains; invite links let a person
// sign up all the same. The registration route checks them.
const app = useTestApp();

const register = (overrides: Parameters<typeof newRegistration>[0] = {}) =>
  app().post('/api/users/register/', newRegistration(overrides));

describe('sign-up settings', () => {
  it('are open on a fresh server', async () => {
    const { admin } = await adminAndPeople(app(), 0);
    const res = await app().get('/api/admin/settings/', admin.token);
    expect(res.body).toEqual({ signups: 'open', domains: [], bot_creators: 'everyone', invites: [] });
  });

  it('closed: nobody signs up; open again: they do', async () => {
    const { admin } = await adminAndPeople(app(), 0);
    const put = await app().put(
      '/api/admin/settings/',
      { signups: 'closed', note: 'spam wave' },
      admin.token,
    );
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ signups: 'closed' });
    const refused = await register();
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: SIGNUPS_CLOSED_MESSAGE });

    await app().put('/api/admin/settings/', { signups: 'open' }, admin.token);
    expect((await register()).status).toBe(200);
    const [changed] = await auditOf(app(), admin.token, AUDIT.settingsChanged);
    expect(changed).toMatchObject({ actor: { id: admin.user.id }, detail: { signups: 'open' } });
  });

  it('domains: only addresses at those domains sign up', async () => {
    const { admin } = await adminAndPeople(app(), 0);
    const bad = await app().put('/api/admin/settings/', { signups: 'domains', domains: [] }, admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body.domains).toBeDefined();
    expect(
      (
        await app().put(
          '/api/admin/settings/',
          { signups: 'domains', domains: ['not a domain'] },
          admin.token,
        )
      ).status,
    ).toBe(400);
    const put = await app().put(
      '/api/admin/settings/',
      { signups: 'domains', domains: ['@Example.ORG', 'corp.test'] },
      admin.token,
    );
    expect(put.body).toMatchObject({ signups: 'domains', domains: ['example.org', 'corp.test'] });

    const outsider = await register({ email: `x${Date.now()}@elsewhere.test` });
    expect(outsider.status).toBe(400);
    expect(outsider.body).toEqual({ email: [`${SIGNUP_DOMAIN_MESSAGE}example.org, corp.test`] });
    expect((await register({ email: `x${Date.now()}@EXAMPLE.org` })).status).toBe(200);
    // A look-alike sub-domain is another domain.
    expect((await register({ email: `x${Date.now()}@evil.example.org` })).status).toBe(400);
  });
});

describe('invite links', () => {
  it('let a person sign up while sign-ups are closed, as often as allowed, until revoked', async () => {
    const { admin } = await adminAndPeople(app(), 0);
    await app().put('/api/admin/settings/', { signups: 'closed' }, admin.token);
    const made = await app().post(
      '/api/admin/settings/invites/',
      { max_uses: 2, expires_in_days: 3 },
      admin.token,
    );
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      uses: 0,
      max_uses: 2,
      usable: true,
      created_by: { id: admin.user.id },
      url: expect.stringContaining(`/register?invite=${made.body.token}`),
    });
    const days = (Date.parse(made.body.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThan(3.1);

    const first = await register({ invite: made.body.token });
    expect(first.status, first.text).toBe(200);
    // A registration refused for another reason does not use the link up.
    const taken = await register({ invite: made.body.token, email: first.body.email });
    expect(taken.status).toBe(400);
    expect((await register({ invite: made.body.token })).status).toBe(200);
    const spent = await register({ invite: made.body.token });
    expect(spent.status).toBe(403);
    expect(spent.body).toEqual({ detail: INVITE_INVALID_MESSAGE });
    expect((await register({ invite: 'made-up-invite-token-123' })).body).toEqual({
      detail: INVITE_INVALID_MESSAGE,
    });

    const open = await app().post('/api/admin/settings/invites/', { expires_in_days: null }, admin.token);
    expect(open.body).toMatchObject({ expires_at: null, max_uses: null });
    const listed = await app().get('/api/admin/settings/', admin.token);
    expect(
      listed.body.invites.map((i: { id: number; usable: boolean; uses: number }) => [i.id, i.usable, i.uses]),
    ).toEqual([
      [open.body.id, true, 0],
      [made.body.id, false, 2],
    ]);
    expect((await app().del(`/api/admin/settings/invites/${open.body.id}/`, admin.token)).status).toBe(204);
    expect((await app().del(`/api/admin/settings/invites/${open.body.id}/`, admin.token)).status).toBe(404);
    expect((await register({ invite: open.body.token })).status).toBe(403);

    expect((await auditOf(app(), admin.token, AUDIT.inviteCreated)).length).toBe(2);
    expect((await auditOf(app(), admin.token, AUDIT.inviteRevoked))[0]).toMatchObject({
      detail: { invite_id: open.body.id },
    });
  });

  it('let an address outside the allowed domains sign up; an expired link does not', async () => {
    const { admin } = await adminAndPeople(app(), 0);
    await app().put('/api/admin/settings/', { signups: 'domains', domains: ['corp.test'] }, admin.token);
    const made = await app().post('/api/admin/settings/invites/', {}, admin.token);
    expect(
      (await register({ email: `guest${Date.now()}@elsewhere.test`, invite: made.body.token })).status,
    ).toBe(200);
    await app()
      .ctx.db.updateTable('invite_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', made.body.id)
      .execute();
    expect(
      (await register({ email: `late${Date.now()}@elsewhere.test`, invite: made.body.token })).status,
    ).toBe(403);
  });
});

describe('GET /api/site/', () => {
  const site = async () => {
    const res = await app().get('/api/site/');
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('tells anyone, before a form is filled, who may sign up and whether an invite link can be used', async () => {
    const { admin } = await adminAndPeople(app(), 0);
    expect(await site()).toEqual({
      signups: 'open',
      domains: [],
      invites: false,
      sign_in_providers: [],
      password_sign_in: true,
    });

    await app().put('/api/admin/settings/', { signups: 'closed' }, admin.token);
    expect(await site()).toEqual({
      signups: 'closed',
      domains: [],
      invites: false,
      sign_in_providers: [],
      password_sign_in: true,
    });
    const made = await app().post('/api/admin/settings/invites/', { max_uses: 1 }, admin.token);
    expect(await site()).toMatchObject({ signups: 'closed', invites: true });
    // Used up, the link no longer counts.
    expect((await register({ invite: made.body.token })).status).toBe(200);
    expect(await site()).toMatchObject({ invites: false });

    const open = await app().post('/api/admin/settings/invites/', {}, admin.token);
    await app().put('/api/admin/settings/', { signups: 'domains', domains: ['corp.test'] }, admin.token);
    expect(await site()).toEqual({
      signups: 'domains',
      domains: ['corp.test'],
      invites: true,
      sign_in_providers: [],
      password_sign_in: true,
    });
    await app().del(`/api/admin/settings/invites/${open.body.id}/`, admin.token);
    expect(await site()).toMatchObject({ invites: false });
    // Expired links do not count either.
    const late = await app().post('/api/admin/settings/invites/', {}, admin.token);
    await app()
      .ctx.db.updateTable('invite_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', late.body.id)
      .execute();
    expect(await site()).toMatchObject({ invites: false });
  });
});
