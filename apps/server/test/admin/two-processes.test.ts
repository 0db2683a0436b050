import path from 'node:path';
import { DEACTIVATED_LOGIN_MESSAGE } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgresUrl } from '../helpers/pg-schema';
import { killAll, type ServerProcess, spawnServer } from '../helpers/server-process';
import { createStore, type ServerStore } from '../helpers/server-store';
import type { SignedUp } from '../helpers/test-app';

// The admin's actions across processes: two real Parley processes on one PostgreSQL schema and one
// Redis. The admin acts on A; the person's sockets are on B, and B refuses them at once too.
const pgUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const enabled = isPostgresUrl(pgUrl) && !!redisUrl;
const WAIT = 10_000;

describe.skipIf(!enabled)('admin actions across two processes', () => {
  let store: ServerStore;
  let a: ServerProcess;
  let b: ServerProcess;
  let root: SignedUp;
  let ada: SignedUp;
  let grace: SignedUp;
  let chatId: string;

  beforeAll(async () => {
    store = await createStore({ postgresUrl: pgUrl });
    a = await spawnServer({ store, redisUrl, label: 'A', dataDir: path.join(store.dataDir, 'a') });
    b = await spawnServer({ store, redisUrl, label: 'B', dataDir: path.join(store.dataDir, 'b') });
    // The first account on this fresh server is its site admin, whichever process made it.
    root = await a.signUp({ first_name: 'Root', last_name: 'Admin' });
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
    const started = await a.get(`/api/chats/start/${grace.user.username}/`, ada.token);
    expect(started.status, started.text).toBe(200);
    chatId = started.body.chat_id;
  }, 120_000);

  afterAll(async () => {
    await killAll();
    await store?.close();
  });

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
  }, 60_000);
});
