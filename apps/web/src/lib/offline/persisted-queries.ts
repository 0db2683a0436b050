import {
  type DehydratedState,
  dehydrate,
  hydrate,
  type Query,
  type QueryClient,
} from '@tanstack/react-query';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { isApiError } from '../http/api-error';

// The query cache kept in IndexedDB, so that offline the chat list and the rooms visited recently
// show what was last loaded. One entry per account, restored when that person is signed in and dropped when
// they sign out. TanStack's persist-client packages do the same, but they pin an older query-core than the
// app's (a second copy in the bundle); this is their dehydrate/throttle/hydrate loop on the app's own copy.
// A stored copy also stands in when the network is up but the server is away (restarting, unreachable): the
// query that could not be answered shows what was last loaded, and its screen says so and retries.

/** Bumped when a stored shape changes: an older cache is ignored. */
const BUSTER = 'parley-1';
/** A cache older than this is not shown. */
export const PERSIST_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Changes are written at most once per second. */
const THROTTLE_MS = 1000;

interface Persisted {
  buster: string;
  savedAt: number;
  /** JSON of the dehydrated state: only successful queries, as the server sent them. */
  state: string;
}

let defaultStore: UseStore | null = null;
const cacheStore = () => {
  defaultStore ??= createStore('parley-query-cache', 'accounts');
  return defaultStore;
};

const keyOf = (userId: number) => `user:${userId}`;

export interface Persistence {
  /** Settles when the stored cache was restored (or found missing, stale or unreadable). */
  ready: Promise<void>;
  /** Stops saving; a restore still under way is dropped. */
  stop: () => void;
}

/** Restores `userId`'s cache into `client` (unless stale), then keeps it saved until stopped. */
export function persistQueries(
  client: QueryClient,
  userId: number,
  store: UseStore = cacheStore(),
  now: () => number = Date.now,
): Persistence {
  const key = keyOf(userId);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let unsubscribe = () => {};
  const save = () => {
    timer = null;
    if (stopped) return;
    const state = JSON.stringify(dehydrate(client));
    void set(key, { buster: BUSTER, savedAt: now(), state } satisfies Persisted, store).catch(
      () => undefined,
    );
  };
  /** Stored copies of queries that were on the network when the store was read, by query hash. */
  const held = new Map<string, StoredQuery>();
  const ready = (async () => {
    try {
      const saved = await get<Persisted>(key, store);
      if (stopped) return;
      if (saved && saved.buster === BUSTER && now() - saved.savedAt <= PERSIST_MAX_AGE_MS) {
        const state = JSON.parse(saved.state) as DehydratedState;
        const answered = liveQueries(client, state);
        hydrate(client, { ...state, queries: state.queries.filter((q) => !answered.has(q)) });
        for (const q of answered) held.set(q.queryHash, q);
        for (const query of client.getQueryCache().getAll()) settleHeld(client, held, query);
      } else if (saved) {
        await del(key, store);
      }
    } catch {
      // A cache that cannot be read is only a slower start.
    }
    if (stopped) return;
    unsubscribe = client.getQueryCache().subscribe((event) => {
      if (event.type !== 'added' && event.type !== 'removed' && event.type !== 'updated') return;
      if (event.type === 'updated') settleHeld(client, held, event.query);
      timer ??= setTimeout(save, THROTTLE_MS);
    });
  })();
  return {
    ready,
    stop: () => {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

type StoredQuery = DehydratedState['queries'][number];

/**
 * The stored queries that the network has answered, or is answering, in this visit: they are held back.
 * - a copy from an earlier visit written over a query whose answer is on its way would be taken for that
 *   answer (the room read an old first_unread_id and opened in the wrong place);
 * - one written over a refusal that came before the store was read would stand in for it (a group one was
 *   removed from, its settings opened from the address, showed the group again instead of 'Chat not found').
 * Offline, a fetch is paused, neither fetching nor failed, so the stored copy still fills it.
 */
function liveQueries(client: QueryClient, state: DehydratedState): Set<StoredQuery> {
  const cache = client.getQueryCache();
  return new Set(
    state.queries.filter((q) => {
      const live = cache.get(q.queryHash)?.state;
      return live !== undefined && (live.fetchStatus === 'fetching' || live.status === 'error');
    }),
  );
}

/** No answer, or the server's own failure (a restart, a proxy with no server behind it): not a refusal. */
const serverAway = (error: unknown): boolean =>
  isApiError(error) && (error.status === 0 || error.status >= 500);

/**
 * A held-back copy fills its query once a fetch of it failed because the server was away, if no answer came
 * before: the screen shows what was last loaded (its data older than the visit, so it can tell) instead of an
 * error. An answer, or a refusal, lets the copy go.
 */
function settleHeld(client: QueryClient, held: Map<string, StoredQuery>, query: Query): void {
  const stored = held.get(query.queryHash);
  if (!stored) return;
  const { data, error, fetchFailureReason } = query.state;
  const failure = fetchFailureReason ?? error;
  if (data !== undefined || (failure !== null && !serverAway(failure))) {
    held.delete(query.queryHash);
    return;
  }
  if (failure === null) return;
  held.delete(query.queryHash);
  client.setQueryData(query.queryKey, stored.state.data, { updatedAt: stored.state.dataUpdatedAt });
}

/** Drops `userId`'s stored cache (signing out). */
export function forgetQueries(userId: number, store: UseStore = cacheStore()): Promise<void> {
  return del(keyOf(userId), store).catch(() => undefined);
}
