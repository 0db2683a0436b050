import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { createStore, get } from 'idb-keyval';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../http/api-error';
import { forgetQueries, PERSIST_MAX_AGE_MS, persistQueries } from './persisted-queries';

let dbCount = 0;
const freshStore = () => createStore(`query-cache-test-${++dbCount}`, 'accounts');
const chats = [{ chat_id: 'c1', name: 'Grace' }];

afterEach(() => {
  vi.useRealTimers();
});

/** Fills `client` with the chat list and lets the throttled save run. */
async function loadAndSave(client: QueryClient) {
  client.setQueryData(['chats', 'list'], chats);
  await vi.advanceTimersByTimeAsync(1_100);
}

/** An earlier visit by user 1 that loaded the chat list (and, given, chat c1's detail) and saved them. */
async function visitedBefore(store: ReturnType<typeof freshStore>, chat?: unknown) {
  const client = new QueryClient();
  const visit = persistQueries(client, 1, store);
  await visit.ready;
  if (chat !== undefined) client.setQueryData(['chat', 'c1'], chat);
  await loadAndSave(client);
  visit.stop();
}

describe('persistQueries', () => {
  it("saves what was loaded and restores it into the next session's cache, per account", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const store = freshStore();
    await visitedBefore(store);

    const reloaded = new QueryClient();
    await persistQueries(reloaded, 1, store).ready;
    expect(reloaded.getQueryData(['chats', 'list'])).toEqual(chats);

    const someoneElse = new QueryClient();
    await persistQueries(someoneElse, 2, store).ready;
    expect(someoneElse.getQueryData(['chats', 'list'])).toBeUndefined();
  });

  it('leaves a query being fetched to its answer, and fills one that waits for the network', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const store = freshStore();
    await visitedBefore(store, { first_unread_id: null });

    // The next visit asks for both before the stored cache is read: one is on the network, one is paused.
    const reloaded = new QueryClient();
    let answer: (v: unknown) => void = () => {};
    void reloaded.fetchQuery({ queryKey: ['chat', 'c1'], queryFn: () => new Promise((r) => (answer = r)) });
    reloaded
      .getQueryCache()
      .build(reloaded, { queryKey: ['chats', 'list'] })
      .setState({ fetchStatus: 'paused' });
    await persistQueries(reloaded, 1, store).ready;
    expect(reloaded.getQueryData(['chat', 'c1'])).toBeUndefined();
    expect(reloaded.getQueryData(['chats', 'list'])).toEqual(chats);
    answer({ first_unread_id: 61 });
    await vi.waitFor(() => expect(reloaded.getQueryData(['chat', 'c1'])).toEqual({ first_unread_id: 61 }));
  });

  it('leaves a refusal that came before the stored cache was read (a chat one was removed from)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const store = freshStore();
    await visitedBefore(store, { name: 'Crew' });

    const reloaded = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await reloaded
      .fetchQuery({ queryKey: ['chat', 'c1'], queryFn: () => Promise.reject(new Error('404')) })
      .catch(() => undefined);
    await persistQueries(reloaded, 1, store).ready;
    const restored = reloaded.getQueryCache().find({ queryKey: ['chat', 'c1'], exact: true })?.state;
    expect(restored?.status).toBe('error');
    expect(restored?.data).toBeUndefined();
    expect(reloaded.getQueryData(['chats', 'list'])).toEqual(chats);
  });

  it('fills a query whose fetch failed because the server was away, before or after the store was read', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const store = freshStore();
    await visitedBefore(store, { name: 'Crew' });
    const savedAt = Date.now();
    await vi.advanceTimersByTimeAsync(60_000);

    // Failed for good (no answer at all) before the store was read: the copy fills it at once.
    const early = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await early
      .fetchQuery({ queryKey: ['chat', 'c1'], queryFn: () => Promise.reject(new ApiError(0, null)) })
      .catch(() => undefined);
    await persistQueries(early, 1, store).ready;
    const filled = early.getQueryCache().find({ queryKey: ['chat', 'c1'], exact: true })?.state;
    expect(filled?.data).toEqual({ name: 'Crew' });
    // Its time is the stored copy's, older than this visit: the screen can tell it from an answer.
    expect(filled?.dataUpdatedAt).toBeLessThanOrEqual(savedAt);

    // On the network when the store was read: held back, then filled at its first failure (a 502 from a proxy
    // whose server restarts), while it is still being retried.
    const late = new QueryClient({ defaultOptions: { queries: { retry: 1, retryDelay: 5_000 } } });
    let refuse: (error: unknown) => void = () => {};
    const fetching = late
      .fetchQuery({
        queryKey: ['chat', 'c1'],
        queryFn: () => new Promise((_, reject) => (refuse = reject)),
      })
      .catch(() => undefined);
    await persistQueries(late, 1, store).ready;
    expect(late.getQueryData(['chat', 'c1'])).toBeUndefined();
    refuse(new ApiError(502, null));
    await vi.waitFor(() => expect(late.getQueryData(['chat', 'c1'])).toEqual({ name: 'Crew' }));
    const query = late.getQueryCache().find({ queryKey: ['chat', 'c1'], exact: true });
    expect(query?.state.fetchStatus).toBe('fetching');
    expect(query?.state.fetchFailureCount).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    refuse(new ApiError(0, null));
    await fetching;
    expect(late.getQueryData(['chat', 'c1'])).toEqual({ name: 'Crew' });
  });

  it('lets the copy go when the held-back fetch is refused (the chat is gone)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const store = freshStore();
    await visitedBefore(store, { name: 'Crew' });

    const reloaded = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let refuse: (error: unknown) => void = () => {};
    const fetching = reloaded
      .fetchQuery({ queryKey: ['chat', 'c1'], queryFn: () => new Promise((_, reject) => (refuse = reject)) })
      .catch(() => undefined);
    await persistQueries(reloaded, 1, store).ready;
    refuse(new ApiError(404, { detail: 'Not found.' }));
    await fetching;
    const state = reloaded.getQueryCache().find({ queryKey: ['chat', 'c1'], exact: true })?.state;
    expect(state?.status).toBe('error');
    expect(state?.data).toBeUndefined();
  });

  it('forgets an account on sign-out, and a stale cache is not shown', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const store = freshStore();
    let now = 1_000_000;
    const client = new QueryClient();
    const p = persistQueries(client, 1, store, () => now);
    await p.ready;
    await loadAndSave(client);
    p.stop();

    now += PERSIST_MAX_AGE_MS + 1;
    const late = new QueryClient();
    await persistQueries(late, 1, store, () => now).ready;
    expect(late.getQueryData(['chats', 'list'])).toBeUndefined();
    expect(await get('user:1', store)).toBeUndefined();

    const again = new QueryClient();
    const q = persistQueries(again, 1, store, () => now);
    await q.ready;
    await loadAndSave(again);
    q.stop();
    expect(await get('user:1', store)).toBeDefined();
    await forgetQueries(1, store);
    expect(await get('user:1', store)).toBeUndefined();
  });

  it('writes nothing after it was stopped (a sign-out right after a change)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const store = freshStore();
    const client = new QueryClient();
    const p = persistQueries(client, 1, store);
    await p.ready;
    client.setQueryData(['chats', 'list'], chats);
    p.stop();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await get('user:1', store)).toBeUndefined();
  });
});
