import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/modules/accounts/session.service';
import { sessionServiceOf } from '../helpers/sessions';
import { type TestApp, useTestApp } from '../helpers/test-app';

// Expired sessions are swept: a session nobody presents again must not stay in the table for ever.
const app = useTestApp();

const sessionId = async (t: TestApp, token: string) =>
  (
    await t.ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow()
  ).id;

const exists = async (t: TestApp, id: number) =>
  !!(await t.ctx.db.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst());

const expire = (t: TestApp, id: number) =>
  t.ctx.db
    .updateTable('sessions')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', id)
    .execute();

/** Two sessions of one person: the first made expired, the second live. */
async function expiredAndLive(t: TestApp) {
  const { token, payload } = await t.signUpAndVerify();
  const other = (await t.login(payload.email, payload.password)).body.token as string;
  const expired = await sessionId(t, token);
  const live = await sessionId(t, other);
  await expire(t, expired);
  return { expired, live };
}

describe('expired session sweep', () => {
  it('deletes the rows of expired sessions and keeps live ones', async () => {
    const { expired, live } = await expiredAndLive(app());
    expect(await app().ctx.sessions.sweepExpired()).toBeGreaterThanOrEqual(1);
    expect(await exists(app(), expired)).toBe(false);
    expect(await exists(app(), live)).toBe(true);
  });

  it('runs on its own once started, and no more once stopped', async () => {
    const sessions = sessionServiceOf(app(), { sweepIntervalMs: 50 });
    sessions.startSweeping(app().ctx.log);
    const first = await expiredAndLive(app());
    const deadline = Date.now() + 10_000;
    while ((await exists(app(), first.expired)) && Date.now() < deadline) await sleep(25);
    expect(await exists(app(), first.expired)).toBe(false);
    expect(await exists(app(), first.live)).toBe(true);

    await sessions.stop();
    const second = await expiredAndLive(app());
    await sleep(300);
    expect(await exists(app(), second.expired)).toBe(true);
    await app().ctx.sessions.sweepExpired();
  });
});
