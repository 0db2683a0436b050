import type { FetchStatus } from '@tanstack/react-query';

// Where a room opens depends on its detail's first unread message, so the detail must be the one
// fetched on this entry, not a copy from earlier.

/** The parts of the detail query that tell whether it may decide where the room opens. */
export interface DetailQueryState {
  data: unknown;
  dataUpdatedAt: number;
  isError: boolean;
  fetchStatus: FetchStatus;
  /** Failed attempts of the current fetch (0 once one succeeds). */
  failureCount: number;
}

/**
 * Whether the room may open with this detail: it was loaded since the room was entered at `enteredAt`, or it
 * failed (the room shows the error, or the copy saved on this device when the server was away), or it waits
 * offline (the persisted copy opens the room, fetched again once online). Judged by the data's own time, not by a count of updates: restoring the persisted cache
 * while the entry's fetch is under way writes an older detail into the query and counts as an update — its
 * first unread message would be that of a past visit.
 */
export const detailReady = (query: DetailQueryState, enteredAt: number): boolean =>
  query.isError ||
  (query.data !== undefined &&
    (query.dataUpdatedAt >= enteredAt || query.fetchStatus === 'paused' || query.failureCount > 0));

/**
 * Whether the room shows the copy of the chat saved on this device (the server could not be reached since it
 * was entered), not one loaded on this entry.
 */
export const showsStoredCopy = (query: Pick<DetailQueryState, 'data' | 'dataUpdatedAt'>, enteredAt: number) =>
  query.data !== undefined && query.dataUpdatedAt < enteredAt;
