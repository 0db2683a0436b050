import { CLOSE_AUTH_FAILED } from '@parley/protocol';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../helpers/server-process';
import type { SignedUp } from '../helpers/test-app';
import { twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';
import { withTimeout } from '../helpers/waits';
import { FIREFOX_LINUX, SAFARI_IPHONE } from './account-helpers';

// Sessions across processes: two real Parley processes (A and B), each with a DATA_DIR of its own, on one
// PostgreSQL schema and one Redis. A session signed out on A has its sockets on B closed with 4001 at once, and
// two-step sign-in set up on one process works on the other.

const CLOSE_WITHIN_MS = 3000;

describe.skipIf(!twoProcessesEnabled)('sessions and two-step sign-in across two processes', () => {
  const processes = useTwoProcesses();
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;

  beforeAll(async () => {
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
  }, 120_000);

  const loginOn = async (p: ServerProcess, userAgent: string, extra: Record<string, string> = {}) => {
    const res = await p.post(
      '/api/users/login/',
      { email: ada.payload.email, password: ada.payload.password, ...extra },
      undefined,
      { 'user-agent': userAgent },
    );
    expect(res.status, res.text).toBe(200);
    return res.body.token as string;
  };

  it('closes a session’s sockets on the other process at once when it is signed out', async () => {
    const phone = await loginOn(b, SAFARI_IPHONE);
    const phoneId = (await b.get('/api/users/sessions/', phone)).body.results.find(
      (s: { current: boolean }) => s.current,
    ).id;
    const onB = (await b.openNotifications(phone)).client;

    const started = Date.now();
    const res = await a.request('DELETE', `/api/users/sessions/${phoneId}/`, { token: ada.token });
    expect(res.status, res.text).toBe(204);
    const closed = await withTimeout(onB.closed(), CLOSE_WITHIN_MS, 'the socket on B to close');
    expect(closed.code).toBe(CLOSE_AUTH_FAILED);
    expect(Date.now() - started).toBeLessThan(CLOSE_WITHIN_MS);
  });

  it('closes every other session’s sockets on the other process, keeping the caller’s', async () => {
    const laptop = await loginOn(b, FIREFOX_LINUX);
    const laptopSocket = (await b.openNotifications(laptop)).client;
    const mine = (await b.openNotifications(ada.token)).client;

    const res = await a.post('/api/users/sessions/revoke-others/', {}, ada.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.revoked).toBeGreaterThanOrEqual(1);
    const closed = await withTimeout(
      laptopSocket.closed(),
      CLOSE_WITHIN_MS,
      'the other session’s socket on B',
    );
    expect(closed.code).toBe(CLOSE_AUTH_FAILED);
    expect(mine.isOpen).toBe(true);
    mine.close();
  });

  it('takes a second step set up on one process at a login on the other', async () => {
    const setup = await a.post('/api/users/2fa/setup/', {}, ada.token);
    expect(setup.status, setup.text).toBe(200);
    const secret = setup.body.secret as string;
    const enable = await b.post('/api/users/2fa/enable/', { code: await generate({ secret }) }, ada.token);
    expect(enable.status, enable.text).toBe(200);

    const asked = await b.post('/api/users/login/', {
      email: ada.payload.email,
      password: ada.payload.password,
    });
    expect(asked.status).toBe(401);
    expect(asked.body.detail.requires_totp).toBe(true);
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    expect(typeof (await loginOn(a, FIREFOX_LINUX, { totp_code: next }))).toBe('string');
  });
});
