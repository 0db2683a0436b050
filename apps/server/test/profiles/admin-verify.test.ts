import { describe, expect, it } from 'vitest';
import { operatorEnvOf, runOperatorCli } from '../helpers/operator-cli';
import { type TestApp, useTestApp } from '../helpers/test-app';

// The operator command `npm run admin -- verify|unverify <username>` (DESIGN §1: no self-service badge),
// run as the operator runs it, against a live app's data (on PostgreSQL, the test's own schema).
const app = useTestApp();
const operator = (t: TestApp, ...args: string[]) => runOperatorCli(operatorEnvOf(t), ...args);
// Each run starts a TypeScript process: slow on a busy machine.
const SLOW = { timeout: 240_000 };

const badgeOf = async (t: TestApp, username: string) =>
  (await t.get(`/api/users/@${username}/`)).body.is_blue_verified;

describe('npm run admin -- verify|unverify <username>', () => {
  it('sets and clears the verified badge', SLOW, async () => {
    const u = await app().signUpAndVerify();
    expect(await badgeOf(app(), u.user.username)).toBe(false);

    const verify = await operator(app(), 'verify', u.user.username.toUpperCase());
    expect(verify).toMatchObject({ code: 0 });
    expect(verify.stdout).toContain(`${u.user.username} is now verified.`);
    expect(await badgeOf(app(), u.user.username)).toBe(true);
    expect((await app().get('/api/profiles')).body[0].is_blue_verified).toBe(true);

    expect((await operator(app(), 'unverify', u.user.username)).code).toBe(0);
    expect(await badgeOf(app(), u.user.username)).toBe(false);
  });

  it('says so for an unknown user or a wrong command', SLOW, async () => {
    const unknown = await operator(app(), 'verify', 'nobody_at_all');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user named nobody_at_all.');
    const usage = await operator(app(), 'promote', 'someone');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage');
  });
});
