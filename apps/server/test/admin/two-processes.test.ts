import { DEACTIVATED_LOGIN_MESSAGE } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../helpers/server-process';
import type { SignedUp } from '../helpers/test-app';
import { startChatOn, twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';

// The admin's actions across processes: two real Parley processes on one PostgreSQL schema and one
// Redis. The admin acts on A; the person's sockets are on B, and B refuses them at once too.
const WAIT = 10_000;

describe.skipIf(!twoProcessesEnabled)('admin actions across two processes', () => {
  const processes = useTwoProcesses();
  let a: ServerProcess;
  let b: ServerProcess;
  let root: SignedUp;
  let ada: SignedUp;
  let grace: SignedUp;
  let chatId: string;

  beforeAll(async () => {
    ({ a, b } = processes());
    // The first account on this fresh server is its site admin, whichever process made it.
    root = await a.signUp({ first_name: 'Root', last_name: 'Admin' });
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
    chatId = await startChatOn(a, ada, grace);
  }, 120_000);

  it('deactivating on A closes the person’s sockets on B with 4001 and B refuses their login', async () => {
    expect(root.user.is_site_admin).toBe(true);
    expect((await b.get('/api/admin/users/', ada.token)).status).toBe(404);
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace room')).client;
    const graceNotes = (await b.openNotifications(grace.token)).client;
    const adaRoom = (await a.joinRoom(ada.token, chatId, 'ada room')).client;

    const res = await a.post(`/api/admin/users/${grace.user.id}/deactivate/`, { note: 'across' }, root.token);
    expect(res.status, res.text).toBe(200);
    expect((await graceRoom.closed(WAIT)).code).toBe(4001);
    expect((await graceNotes.closed(WAIT)).code).toBe(4001);
    expect(adaRoom.isOpen).toBe(true);
    const login = await b.post('/api/users/login/', {
      email: grace.payload.email,
      password: grace.payload.password,
    });
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ detail: DEACTIVATED_LOGIN_MESSAGE });

    // Both processes list her as inactive; reactivated on B, she signs in on A.
    expect((await b.get(`/api/admin/users/${grace.user.id}/`, root.token)).body.is_active).toBe(false);
    expect((await b.post(`/api/admin/users/${grace.user.id}/reactivate/`, {}, root.token)).status).toBe(200);
    const back = await a.post('/api/users/login/', {
      email: grace.payload.email,
      password: grace.payload.password,
    });
    expect(back.status).toBe(200);
    await adaRoom.close();
  }, 120_000);
});
