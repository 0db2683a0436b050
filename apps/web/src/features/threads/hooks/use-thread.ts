import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { serverErrorOr } from '../../../lib/http/api-error';
import { t } from '../../../lib/i18n/i18n';
import { threadQueryKeys } from '../../../lib/queries/threads';
import type { SocketStatus } from '../../../lib/realtime/chat-socket';
import { roomChannel } from '../../../lib/realtime/room-channel';
import { toast } from '../../../lib/ui/toast';
import { setFollowing } from '../api/follow-thread';
import { getThread } from '../api/get-thread';
import { threadActionOf } from '../lib/thread-frames';
import { initialThread, threadReducer } from '../lib/thread-state';
import { useThreadReads } from './use-thread-reads';
import { type ThreadUploader, useThreadSends } from './use-thread-sends';

// One open thread's live state: its pages, the room's frames about it (through the chat's shared room socket,
// lib/realtime/room-channel.ts), this reader's replies until the room echoes them (use-thread-sends.ts: kept
// in the outbox), their read reports, and following. After every open of the socket the thread is read again
// from its start, then what waits is sent.

export type { ThreadUploader };

export function useThread(chatId: string, rootId: number, meId: number, uploader: ThreadUploader) {
  const [state, dispatch] = useReducer(threadReducer, initialThread);
  const stateRef = useRef(state);
  stateRef.current = state;
  const [loadError, setLoadError] = useState<unknown>(null);
  const [loadingNewer, setLoadingNewer] = useState(false);
  const [alsoInChat, setAlsoInChat] = useState(false);
  const [status, setStatus] = useState<SocketStatus>(() => roomChannel.statusOf(chatId));
  const queryClient = useQueryClient();
  /**
   * Reads the thread from its start: the first page on opening; after a drop, as far as it was read (to its
   * end when it was all loaded), so edits, deletions and replies made meanwhile all come in.
   */
  const readFromStart = useCallback(async () => {
    const { loaded, nextCursor } = stateRef.current;
    const upTo = !loaded ? 0 : nextCursor === null ? Number.POSITIVE_INFINITY : Number(nextCursor);
    const first = await getThread(chatId, rootId);
    const replies = [...first.results];
    let next = first.next_cursor;
    while (next !== null && Number(next) < upTo) {
      const page = await getThread(chatId, rootId, next);
      replies.push(...page.results);
      next = page.next_cursor;
    }
    dispatch({ type: 'loaded', root: first.root, replies, next_cursor: next, following: first.following });
    setLoadError(null);
  }, [chatId, rootId]);

  const load = useCallback(() => {
    setLoadError(null);
    readFromStart().catch((error: unknown) => setLoadError(error));
  }, [readFromStart]);
  useEffect(load, [load]);

  /** The next page of newer replies ('Show newer replies', or scrolling to the end). */
  const loadNewer = useCallback(async () => {
    const cursor = stateRef.current.nextCursor;
    if (cursor === null || loadingNewer) return;
    setLoadingNewer(true);
    try {
      const page = await getThread(chatId, rootId, cursor);
      dispatch({ type: 'newer', root: page.root, replies: page.results, next_cursor: page.next_cursor });
    } catch (error) {
      toast.error(serverErrorOr(error, t('browse.thread.repliesFailed')));
    } finally {
      setLoadingNewer(false);
    }
  }, [chatId, rootId, loadingNewer]);

  const sends = useThreadSends({
    chatId,
    rootId,
    meId,
    uploader,
    pending: state.pending,
    stateRef,
    dispatch,
    alsoInChat,
  });
  const { resend, onDown } = sends;

  useEffect(() => {
    const stop = roomChannel.listen(chatId, {
      onFrame: (frame) => {
        const action = threadActionOf(frame, rootId, meId, stateRef.current);
        if (action) dispatch(action);
      },
      onOpen: () => {
        void readFromStart()
          .catch(() => undefined)
          .then(resend);
      },
      onStatus: (next) => {
        setStatus(next);
        if (next !== 'connected') onDown();
      },
    });
    // The socket may have opened between this pane's drawing and now, unheard: it is taken as it is.
    const now = roomChannel.statusOf(chatId);
    setStatus(now);
    if (now === 'connected') void resend();
    return stop;
  }, [chatId, rootId, meId, readFromStart, resend, onDown]);

  /** Follow (be told of its replies) or stop following; the Threads view follows. */
  const toggleFollowing = async () => {
    const next = !stateRef.current.following;
    dispatch({ type: 'following', following: next });
    try {
      await setFollowing(chatId, rootId, next);
      void queryClient.invalidateQueries({ queryKey: threadQueryKeys.followed() });
    } catch (error) {
      dispatch({ type: 'following', following: !next });
      toast.error(serverErrorOr(error, t('browse.thread.followFailed')));
    }
  };

  useThreadReads(chatId, rootId, meId, state.replies, status);

  return {
    meId,
    state,
    dispatch,
    status,
    loadError,
    reload: load,
    loadNewer,
    loadingNewer,
    alsoInChat,
    setAlsoInChat,
    send: sends.send,
    sendFiles: sends.sendFiles,
    retry: sends.retry,
    cancel: sends.cancel,
    toggleFollowing,
  };
}

export type OpenThread = ReturnType<typeof useThread>;
