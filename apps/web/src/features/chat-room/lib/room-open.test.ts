import { dehydrate, hydrate, onlineManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http/api-error';
import { detailReady, showsStoredCopy } from './room-open';

const KEY = ['chats', 'detail', 'c1'];
const PAST = { first_unread_id: null };
const NOW = { first_unread_id: 61 };

/** The persisted cache of a past visit, as IndexedDB gives it back (see lib/offline/persisted-queries.ts). */
function savedVisit(at: number) {
  const past = new QueryClient();
  past.setQueryData(KEY, PAST, { updatedAt: at });
  past.setQueryData(KEY, PAST, { updatedAt: at });
  return dehydrate(past);
}

/** A room entered now: the detail's observer mounts and its fetch starts. */
function enter(client: QueryClient, queryFn: () => Promise<unknown>) {
  const enteredAt = Date.now();
  const observer = new QueryObserver(client, { queryKey: KEY, queryFn, retry: false });
  const unsubscribe = observer.subscribe(() => {});
  return { enteredAt, observer, unsubscribe };
}

afterEach(() => onlineManager.setOnline(true));

describe('detailReady', () => {
  it('waits for the entry’s fetch when the persisted cache is restored while it is under way', async () => {
    const client = new QueryClient();
    let answer: (detail: unknown) => void = () => {};
    const { enteredAt, observer, unsubscribe } = enter(
      client,
      () => new Promise((resolve) => (answer = resolve)),
    );
    expect(detailReady(observer.getCurrentResult(), enteredAt)).toBe(false);

    hydrate(client, savedVisit(enteredAt - 60_000));
    const restored = observer.getCurrentResult();
    // The trap: the restore counts as an update since the mount, with the past visit's first unread message.
    expect(restored.isFetchedAfterMount).toBe(true);
    expect(restored.data).toEqual(PAST);
    expect(detailReady(restored, enteredAt)).toBe(false);

    answer(NOW);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(NOW));
    const fetched = observer.getCurrentResult();
    expect(detailReady(fetched, enteredAt)).toBe(true);
    unsubscribe();
  });

  it('opens offline with the persisted detail, and on a failed fetch (the room shows the error)', async () => {
    onlineManager.setOnline(false);
    const offline = new QueryClient();
    const away = enter(offline, async () => NOW);
    hydrate(offline, savedVisit(away.enteredAt - 60_000));
    expect(away.observer.getCurrentResult().fetchStatus).toBe('paused');
    expect(detailReady(away.observer.getCurrentResult(), away.enteredAt)).toBe(true);
    away.unsubscribe();
    onlineManager.setOnline(true);

    const failing = new QueryClient();
    const broken = enter(failing, () => Promise.reject(new Error('500')));
    await vi.waitFor(() => expect(broken.observer.getCurrentResult().isError).toBe(true));
    expect(detailReady(broken.observer.getCurrentResult(), broken.enteredAt)).toBe(true);
    broken.unsubscribe();
  });

  it('opens with the saved copy once a fetch failed because the server was away, still retrying', async () => {
    const client = new QueryClient();
    const enteredAt = Date.now();
    let attempts = 0;
    const observer = new QueryObserver(client, {
      queryKey: KEY,
      queryFn: () => {
        attempts++;
        return Promise.reject(new ApiError(0, null));
      },
      retry: 3,
      retryDelay: 60_000,
    });
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().failureCount).toBe(1));
    // Nothing saved: it keeps waiting for an answer (the room says 'Loading chat...').
    expect(detailReady(observer.getCurrentResult(), enteredAt)).toBe(false);
    // The saved copy fills the query (lib/offline/persisted-queries.ts) while the fetch is retried.
    client.setQueryData(KEY, PAST, { updatedAt: enteredAt - 60_000 });
    const shown = observer.getCurrentResult();
    expect(shown.fetchStatus).toBe('fetching');
    expect(detailReady(shown, enteredAt)).toBe(true);
    expect(showsStoredCopy(shown, enteredAt)).toBe(true);
    expect(attempts).toBe(1);
    unsubscribe();
    client.clear();
  });

  it('tells an answer of this entry from a saved copy', () => {
    expect(showsStoredCopy({ data: NOW, dataUpdatedAt: 2_000 }, 1_000)).toBe(false);
    expect(showsStoredCopy({ data: PAST, dataUpdatedAt: 500 }, 1_000)).toBe(true);
    expect(showsStoredCopy({ data: undefined, dataUpdatedAt: 0 }, 1_000)).toBe(false);
  });
});
