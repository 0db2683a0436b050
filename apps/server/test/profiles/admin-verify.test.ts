import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type TestApp, useTestApp } from '../helpers/test-app';

// The operator command `npm run admin -- verify|unverify <username>` (DESIGN §1: no self-service badge),
// run as the operator runs it, against the same DATA_DIR as a live app. It always uses SQLite here: the
// command reads its database from the environment and cannot see a test's private PostgreSQL schema.
const app = useTestApp({ env: { DATABASE_URL: undefined } });
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');

async function admin(t: TestApp, ...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(tsx, ['src/operator/main.ts', ...args], {
      cwd: serverDir,
      env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: t.dataDir },
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const badgeOf = async (t: TestApp, username: string) =>
  (await t.get(`/api/users/@${username}/`)).body.is_blue_verified;

describe('npm run admin -- verify|unverify <username>', () => {
  it('sets and clears the verified badge', async () => {
    const u = await app().signUpAndVerify();
    expect(await badgeOf(app(), u.user.username)).toBe(false);

    const verify = await admin(app(), 'verify', u.user.username.toUpperCase());
    expect(verify).toMatchObject({ code: 0 });
    expect(verify.stdout).toContain(`${u.user.username} is now verified.`);
    expect(await badgeOf(app(), u.user.username)).toBe(true);
    expect((await app().get('/api/profiles')).body[0].is_blue_verified).toBe(true);

    expect((await admin(app(), 'unverify', u.user.username)).code).toBe(0);
    expect(await badgeOf(app(), u.user.username)).toBe(false);
  });

  it('says so for an unknown user or a wrong command', async () => {
    const unknown = await admin(app(), 'verify', 'nobody_at_all');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user named nobody_at_all.');
    const usage = await admin(app(), 'promote', 'someone');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage');
  });
});
