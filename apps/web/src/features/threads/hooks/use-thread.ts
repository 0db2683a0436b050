import type { FileType, ReplyQuote } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { serverErrorOr } from '../../../lib/http/api-error';
import { threadQueryKeys } from '../../../lib/queries/threads';
import { newClientId, type SocketStatus } from '../../../lib/realtime/chat-socket';
import { roomChannel } from '../../../lib/realtime/room-channel';
import { toast } from '../../../lib/ui/toast';
import { setFollowing } from '../api/follow-thread';
import { getThread } from '../api/get-thread';
import { replyFrame, threadActionOf } from '../lib/thread-frames';
import { initialThread, type ThreadPending, threadReducer } from '../lib/thread-state';
import { useThreadReads } from './use-thread-reads';

// One open thread's live state: its pages, the room's frames about it (through the chat's shared room socket,
// lib/realtime/room-channel.ts), this reader's replies until the room echoes them, their read reports, and
// following. After every open of the socket the thread is read again from its start, then what waits is sent.

/** How the thread sends files: the room's upload, handed over where the pane is composed (app/). */
export interface ThreadUploader {
  /** Uploads files into the chat; resolves to their ids. */
  upload: (files: File[], onProgress: (fraction: number) => void) => Promise<number[]>;
  /** What a reply on its way shows of a chosen file. */
  describe: (file: File) => { name: string; size: number; type: FileType };
  /** The words for a failed upload. */
  errorText: (error: unknown) => string;
}

export const NOT_SENT_TEXT = 'Not sent';

export function useThread(chatId: string, rootId: number, meId: number, uploader: ThreadUploader) {
  const [state, dispatch] = useReducer(threadReducer, initialThread);
  const stateRef = useRef(state);
  stateRef.current = state;
  const [loadError, setLoadError] = useState<unknown>(null);
  const [loadingNewer, setLoadingNewer] = useState(false);
  const [alsoInChat, setAlsoInChat] = useState(false);
  const [status, setStatus] = useState<SocketStatus>(() => roomChannel.statusOf(chatId));
  const queryClient = useQueryClient();
  /** Whether what waited went out on the socket's current connection (until then new replies wait their turn). */
  const flushed = useRef(status === 'connected');
  /** The files of replies still to be uploaded, by client_id (kept for Retry). */
  const files = useRef(new Map<string, File[]>());

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
      toast.error(serverErrorOr(error, 'Could not load the replies.'));
    } finally {
      setLoadingNewer(false);
    }
  }, [chatId, rootId, loadingNewer]);

  /** Sends a reply when its turn has come; otherwise it waits for the socket's next open. */
  const transmit = useCallback(
    (pending: ThreadPending) => {
      if (roomChannel.statusOf(chatId) !== 'connected' || !flushed.current) return;
      if (roomChannel.send(chatId, replyFrame(rootId, pending)) === 'failed')
        dispatch({ type: 'pending_update', client_id: pending.client_id, patch: { status: 'error' } });
    },
    [chatId, rootId],
  );

  /** After an open's catch-up: every reply waiting goes, in the order typed. */
  const resend = useCallback(() => {
    if (roomChannel.statusOf(chatId) !== 'connected') return;
    flushed.current = true;
    for (const p of stateRef.current.pending) if (p.status === 'sending') transmit(p);
  }, [chatId, transmit]);

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
        if (next !== 'connected') flushed.current = false;
      },
    });
    // The socket may have opened between this pane's drawing and now, unheard: it is taken as it is.
    const now = roomChannel.statusOf(chatId);
    setStatus(now);
    if (now === 'connected') resend();
    return stop;
  }, [chatId, rootId, meId, readFromStart, resend]);

  const newPending = (body: string, replyTo?: ReplyQuote): ThreadPending => ({
    client_id: newClientId(),
    body,
    timestamp: new Date().toISOString(),
    status: 'sending',
    also_in_chat: alsoInChat,
    ...(replyTo ? { reply_to: replyTo } : {}),
  });

  /** Sends a reply (quoting `replyTo` when given); offline it waits, pending. False for blank text. */
  const send = (text: string, replyTo?: ReplyQuote): boolean => {
    const body = text.trim();
    if (!body) return false;
    const pending = newPending(body, replyTo);
    dispatch({ type: 'pending', pending });
    transmit(pending);
    return true;
  };

  /** Uploads a reply's files, then sends it; a failed upload leaves it refused, for Retry. */
  const uploadAndSend = async (pending: ThreadPending, chosen: File[]) => {
    const { client_id } = pending;
    try {
      const fileIds = await uploader.upload(chosen, (progress) =>
        dispatch({ type: 'pending_update', client_id, patch: { progress } }),
      );
      files.current.delete(client_id);
      const patch = { status: 'sending' as const, progress: 1, file_ids: fileIds };
      dispatch({ type: 'pending_update', client_id, patch });
      transmit({ ...pending, ...patch });
    } catch (error) {
      const text = uploader.errorText(error);
      toast.error(text);
      dispatch({ type: 'pending_update', client_id, patch: { status: 'error', error: text, progress: 0 } });
    }
  };

  /** Files sent as one reply, the text typed beside them its caption. */
  const sendFiles = (chosen: File[], text: string, replyTo?: ReplyQuote) => {
    if (chosen.length === 0) return;
    const pending: ThreadPending = {
      ...newPending(text.trim(), replyTo),
      status: 'uploading',
      uploads: chosen.map(uploader.describe),
      progress: 0,
    };
    files.current.set(pending.client_id, chosen);
    dispatch({ type: 'pending', pending });
    void uploadAndSend(pending, chosen);
  };

  /** Sends a refused reply again with its client_id (its files again first when they never went up). */
  const retry = (clientId: string) => {
    const pending = stateRef.current.pending.find((p) => p.client_id === clientId);
    if (pending?.status !== 'error') return;
    const chosen = files.current.get(clientId);
    if (chosen) {
      dispatch({
        type: 'pending_update',
        client_id: clientId,
        patch: { status: 'uploading', error: undefined },
      });
      void uploadAndSend(pending, chosen);
      return;
    }
    dispatch({ type: 'pending_update', client_id: clientId, patch: { status: 'sending', error: undefined } });
    transmit({ ...pending, status: 'sending' });
  };

  /** Drops a reply that has not been stored yet. */
  const cancel = (clientId: string) => {
    files.current.delete(clientId);
    dispatch({ type: 'pending_remove', client_id: clientId });
  };

  /** Follow (be told of its replies) or stop following; the Threads view follows. */
  const toggleFollowing = async () => {
    const next = !stateRef.current.following;
    dispatch({ type: 'following', following: next });
    try {
      await setFollowing(chatId, rootId, next);
      void queryClient.invalidateQueries({ queryKey: threadQueryKeys.followed() });
    } catch (error) {
      dispatch({ type: 'following', following: !next });
      toast.error(serverErrorOr(error, 'Could not change following this thread.'));
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
    send,
    sendFiles,
    retry,
    cancel,
    toggleFollowing,
  };
}

export type OpenThread = ReturnType<typeof useThread>;
