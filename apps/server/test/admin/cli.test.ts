import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { AUDIT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { adminAndPeople, auditOf } from './admin-helpers';

// `npm run admin -- grant-admin|revoke-admin <username>`, run as the operator runs it, against the live app's
// database (on PostgreSQL, the test's own schema through the connection's search_path).
const app = useTestApp();
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');

async function admin(t: TestApp, ...args: string[]) {
  const schema = t.ctx.config.databaseSchema;
  const url = t.ctx.config.databaseUrl;
  const databaseUrl =
    schema && url
      ? `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`
      : undefined;
  try {
    const { stdout, stderr } = await promisify(execFile)(tsx, ['src/operator/main.ts', ...args], {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: t.dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('npm run admin -- grant-admin|revoke-admin <username>', () => {
  it('grants and revokes the site-admin role, and the audit log says so', { timeout: 90_000 }, async () => {
    const { admin: first, people } = await adminAndPeople(app(), 1);
    const p = people[0]!;
    expect((await app().get('/api/admin/users/', p.token)).status).toBe(404);

    const grant = await admin(app(), 'grant-admin', p.user.username.toUpperCase());
    expect(grant.stderr).toBe('');
    expect(grant).toMatchObject({ code: 0 });
    expect(grant.stdout).toContain(`${p.user.username} is now a site admin.`);
    expect((await app().get('/api/admin/users/', p.token)).status).toBe(200);
    expect((await app().login(p.payload.email, p.payload.password)).body.is_site_admin).toBe(true);

    const revoke = await admin(app(), 'revoke-admin', first.user.username);
    expect(revoke.code).toBe(0);
    expect((await app().get('/api/admin/users/', first.token)).status).toBe(404);

    const granted = await auditOf(app(), p.token, AUDIT.adminGranted);
    expect(granted[0]).toMatchObject({
      actor: null,
      target: { id: p.user.id },
      detail: { by: 'command line' },
    });
    const [revoked] = await auditOf(app(), p.token, AUDIT.adminRevoked);
    expect(revoked).toMatchObject({ target: { id: first.user.id } });
  });

  // Each run starts a TypeScript process: slow on a busy machine.
  it('says so for an unknown user or a missing name', { timeout: 90_000 }, async () => {
    const unknown = await admin(app(), 'grant-admin', 'nobody_at_all');
    expect(unknown.code, unknown.stderr).toBe(1);
    expect(unknown.stderr).toContain('No user named nobody_at_all.');
    const usage = await admin(app(), 'revoke-admin');
    expect(usage.code, usage.stderr).toBe(2);
    expect(usage.stderr).toContain('Usage');
  });
});
