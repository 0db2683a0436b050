import type { Message } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';
import { roomChannel } from '../../../lib/realtime/room-channel';
import { getMessages, getMessagesAround, getMessagesSince } from '../api/get-messages';
import { PAGE_SIZE, type RoomAction, roomReducer, seededRoomMessages } from '../lib/room-messages';

// The room's message list (confirmed messages and this user's pending sends, see room-messages.ts) and the
// pages that fill it: the newest page from the query cache, what arrived while away (with the loaded stretch
// read again), and older history. Its roots' thread summaries follow the room's thread_updated frames.

/** How long the list rests before its newest page is written back to the cache. */
const WRITE_BACK_MS = 500;

export function useRoomMessages(chatId: string, latest: Message[] | undefined) {
  // The newest page from the query cache seeds the list, in the room's first render when it is there already (the
  // route asked for it while the room's code loaded): no empty list is drawn and then replaced.
  const [state, dispatch] = useReducer(roomReducer, latest, seededRoomMessages);
  const seeded = useRef(latest);
  /** The newest page as the list last wrote it back to the cache (below): no news to take from it. */
  const written = useRef<Message[] | undefined>(undefined);
  /** The list as of the last render, for callbacks that must not be rebuilt on every message. */
  const stateRef = useRef(state);
  stateRef.current = state;
  const [loadingOlder, setLoadingOlder] = useState(false);
  const loadingOlderRef = useRef(false);

  // A newest page that comes later seeds it then (and refills it after 'Try Again'). The list's own write-back is
  // no such page: taken in, it would undo a change (a vote) made while it was on its way to the render.
  useEffect(() => {
    if (latest && latest !== seeded.current && latest !== written.current)
      dispatch({ type: 'page', messages: latest, position: 'latest' });
    seeded.current = undefined;
  }, [latest]);

  // The list's newest page goes back to the query cache a moment after it changes: the cache is persisted
  //, so a reload without a network shows what the room last held.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!state.loaded) return;
    const timer = setTimeout(() => {
      const key = chatQueryKeys.messages(chatId);
      queryClient.setQueryData(key, state.messages.slice(-PAGE_SIZE));
      written.current = queryClient.getQueryData(key);
    }, WRITE_BACK_MS);
    return () => clearTimeout(timer);
  }, [chatId, queryClient, state.loaded, state.messages]);

  /**
   * Messages that live frames edited, deleted, reacted or voted on while a catch-up is on its way, one set per
   * catch-up: the frame is at least as new as the fetched copy, so that copy must not replace it.
   */
  const changedLive = useRef(new Set<Set<number>>());
  const dispatchLive = useCallback((action: RoomAction) => {
    const id =
      action.type === 'updated'
        ? action.message.id
        : action.type === 'deleted' || action.type === 'reactions' || action.type === 'poll'
          ? action.message_id
          : action.type === 'thread'
            ? action.root_id
            : null;
    if (id !== null) for (const ids of changedLive.current) ids.add(id);
    dispatch(action);
  }, []);

  // A thread's reply changes its root's summary ('3 replies') for everyone in the room, whether or not they
  // have the thread open; the socket's other frames reach the list through the room (use-chat-room.ts).
  useEffect(
    () =>
      roomChannel.listen(chatId, {
        onFrame: (frame) => {
          if (frame.type === 'thread_updated')
            dispatchLive({ type: 'thread', root_id: frame.root_id, thread: frame.thread });
        },
      }),
    [chatId, dispatchLive],
  );

  /**
   * After an open: fetches what arrived while away (the newest page when nothing is known yet), and reads the
   * loaded stretch again for the edits, deletions and reactions missed meanwhile — the server has no
   * changed-since cursor; its pages are the history as it is now.
   */
  const catchUp = useCallback(async () => {
    const { messages } = stateRef.current;
    const live = new Set<number>();
    changedLive.current.add(live);
    try {
      if (messages.length === 0) {
        dispatch({ type: 'page', messages: await getMessages(chatId), position: 'latest' });
        return;
      }
      const fetched = await getMessagesSince(chatId, messages);
      dispatch({ type: 'page', messages: fetched, position: 'newer', keep: live });
    } catch {
      // The list stays as it is; the next reconnect tries again.
    } finally {
      changedLive.current.delete(live);
    }
  }, [chatId]);

  const loadOlder = useCallback(async () => {
    const { messages, hasOlder } = stateRef.current;
    if (!hasOlder || loadingOlderRef.current || messages.length === 0) return;
    loadingOlderRef.current = true;
    setLoadingOlder(true);
    try {
      const older = await getMessages(chatId, { before: messages[0]!.id, limit: PAGE_SIZE });
      dispatch({ type: 'page', messages: older, position: 'older' });
    } catch {
      // Scrolling to the top again retries.
    } finally {
      loadingOlderRef.current = false;
      setLoadingOlder(false);
    }
  }, [chatId]);

  /**
   * Makes sure `messageId` is in the list (a quoted message, the first unread one), loading the page around it
   * and everything up to the list when it lies further back. False when it could not be loaded.
   */
  const loadAround = useCallback(
    async (messageId: number): Promise<boolean> => {
      const { messages } = stateRef.current;
      if (messages.some((m) => m.id === messageId)) return true;
      try {
        const page = await getMessagesAround(chatId, messageId, messages[0]?.id ?? null);
        if (!page?.some((m) => m.id === messageId)) return false;
        dispatch({ type: 'page', messages: page, position: 'around' });
        return true;
      } catch {
        return false;
      }
    },
    [chatId],
  );

  return { state, stateRef, dispatch: dispatchLive, catchUp, loadOlder, loadingOlder, loadAround };
}

export type RoomMessageList = ReturnType<typeof useRoomMessages>;
