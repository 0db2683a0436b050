import { createStore } from 'idb-keyval';
import type { PendingMessage } from '../messages/pending-message';
import { Outbox } from './outbox';
import { outboxChanges } from './outbox-sends';

// For the unit tests of what keeps its pending messages in the outbox (a room, a thread's pane): a database of
// their own, and a list whose outbox follows it as the hooks' effects make it follow.

let databases = 0;

/** A fresh outbox database: each call of the returned function opens it again, as a reloaded tab does. */
export function testOutboxDatabase(prefix: string): () => Outbox {
  const name = `${prefix}-${++databases}`;
  return () => new Outbox(createStore(name, 'messages'));
}

/** A list that dispatches actions and keeps `outbox` in step with its pending messages. */
export function followedByOutbox<S extends { pending: PendingMessage[] }, A>(
  reducer: (state: S, action: A) => S,
  initial: S,
  outbox: Outbox,
) {
  let state = initial;
  const writes: Promise<void>[] = [];
  return {
    get state() {
      return state;
    },
    dispatch(action: A) {
      const before = state.pending;
      state = reducer(state, action);
      const { remove, errors } = outboxChanges(before, state.pending);
      for (const id of remove) writes.push(outbox.remove(id));
      for (const { client_id, error } of errors) writes.push(outbox.patch(client_id, { error }));
    },
    settled: () => Promise.all(writes),
  };
}
