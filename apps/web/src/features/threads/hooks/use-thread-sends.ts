import type { FileType, ReplyQuote } from '@parley/protocol';
import { type Dispatch, type RefObject, useCallback, useEffect, useMemo, useRef } from 'react';
import { nextSeq, type OutboxEntry, outboxFor } from '../../../lib/offline/outbox';
import { outboxChanges } from '../../../lib/offline/outbox-sends';
import { threadSends } from '../../../lib/offline/thread-sends';
import { newClientId } from '../../../lib/realtime/chat-socket';
import { roomChannel } from '../../../lib/realtime/room-channel';
import { toast } from '../../../lib/ui/toast';
import { replyFrame } from '../lib/thread-frames';
import {
  type ThreadAction,
  type ThreadPending,
  type ThreadState,
  threadPendingFrom,
} from '../lib/thread-state';

// This reader's replies in one thread until the room echoes them. Each is kept in the outbox (IndexedDB, with
// its thread's root) from the moment it is typed, so it outlives a reload or a closed tab; while the pane is
// open it sends them (lib/offline/thread-sends.ts says who sends when it is not), in the order typed, with
// their first client_ids. A reply's files are kept with it until they are up, then only their ids.

/** How the thread sends files: the room's upload, handed over where the pane is composed (app/). */
export interface ThreadUploader {
  /** Uploads files into the chat; resolves to their ids. */
  upload: (files: File[], onProgress: (fraction: number) => void) => Promise<number[]>;
  /** What a reply on its way shows of a chosen file. */
  describe: (file: File) => { name: string; size: number; type: FileType };
  /** The words for a failed upload. */
  errorText: (error: unknown) => string;
}

interface ThreadSendsDeps {
  chatId: string;
  rootId: number;
  meId: number;
  uploader: ThreadUploader;
  pending: ThreadPending[];
  stateRef: RefObject<ThreadState>;
  dispatch: Dispatch<ThreadAction>;
  alsoInChat: boolean;
}

export function useThreadSends(deps: ThreadSendsDeps) {
  const { chatId, rootId, meId, uploader, pending, stateRef, dispatch, alsoInChat } = deps;
  const outbox = useMemo(() => outboxFor(meId), [meId]);
  /** Whether what waited went out on the socket's current connection (until then new replies wait their turn). */
  const flushed = useRef(false);
  /** This thread's replies as found in the outbox when the pane opened; the first flush waits for them. */
  const restored = useRef<Promise<void>>(Promise.resolve());
  /** The files of replies still to be uploaded, by client_id (kept for Retry), and those going up now. */
  const files = useRef(new Map<string, File[]>());
  const uploading = useRef(new Set<string>());

  useEffect(() => {
    let live = true;
    restored.current = outbox
      .threadReplies(chatId, rootId)
      .then((entries) => {
        if (!live) return;
        const echoed = new Set(stateRef.current.replies.map((m) => m.client_id).filter(Boolean));
        for (const entry of entries) {
          if (echoed.has(entry.client_id)) void outbox.remove(entry.client_id);
          else if (entry.files?.length && !entry.file_ids) files.current.set(entry.client_id, entry.files);
        }
        dispatch({ type: 'restored', pending: entries.map(threadPendingFrom) });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [chatId, rootId, outbox, stateRef, dispatch]);

  // The outbox follows the list: a reply that left it (echoed, cancelled) leaves the outbox; one refused keeps
  // its refusal there, so it comes back with Retry after a reload.
  const previous = useRef<ThreadPending[]>(pending);
  useEffect(() => {
    const { remove, errors } = outboxChanges(previous.current, pending);
    previous.current = pending;
    for (const clientId of remove) void outbox.remove(clientId).catch(() => undefined);
    for (const { client_id, error } of errors) void outbox.patch(client_id, { error }).catch(() => undefined);
  }, [pending, outbox]);

  /** Writes a reply on the room's socket, unless it went on this connection already. */
  const write = useCallback(
    (p: ThreadPending) => {
      if (!threadSends.take(chatId, p.client_id)) return;
      if (roomChannel.send(chatId, replyFrame(rootId, p)) !== 'failed') return;
      threadSends.release(chatId, p.client_id);
      dispatch({ type: 'pending_update', client_id: p.client_id, patch: { status: 'error' } });
    },
    [chatId, rootId, dispatch],
  );

  /** Sends a reply when its turn has come; otherwise it waits for the socket's next open. */
  const transmit = useCallback(
    (p: ThreadPending) => {
      if (roomChannel.statusOf(chatId) === 'connected' && flushed.current) write(p);
    },
    [chatId, write],
  );

  // While open, the pane sends this thread's replies; closed while connected, it sends what it still holds,
  // since the room sends only at its socket's next open.
  useEffect(() => {
    const close = threadSends.openPane(chatId, rootId);
    return () => {
      close();
      if (roomChannel.statusOf(chatId) !== 'connected') return;
      for (const p of stateRef.current.pending) if (p.status === 'sending') write(p);
    };
  }, [chatId, rootId, stateRef, write]);

  /** Uploads a reply's files, then sends it; a failed upload leaves it refused, for Retry. */
  const uploadAndSend = useCallback(
    async (p: ThreadPending, chosen: File[]) => {
      const { client_id } = p;
      if (uploading.current.has(client_id)) return;
      uploading.current.add(client_id);
      let fileIds: number[];
      try {
        fileIds = await uploader.upload(chosen, (progress) =>
          dispatch({ type: 'pending_update', client_id, patch: { progress } }),
        );
      } catch (error) {
        const text = uploader.errorText(error);
        toast.error(text);
        dispatch({ type: 'pending_update', client_id, patch: { status: 'error', error: text, progress: 0 } });
        return;
      } finally {
        uploading.current.delete(client_id);
      }
      files.current.delete(client_id);
      // Cancelled while its files went up: it goes nowhere.
      if (!stateRef.current.pending.some((q) => q.client_id === client_id)) return;
      await outbox.patch(client_id, { file_ids: fileIds, files: undefined }).catch(() => undefined);
      const patch = { status: 'sending' as const, progress: 1, file_ids: fileIds };
      dispatch({ type: 'pending_update', client_id, patch });
      transmit({ ...p, ...patch });
    },
    [uploader, outbox, stateRef, dispatch, transmit],
  );

  /**
   * After an open's catch-up (or on opening while connected): every reply waiting goes, in the order typed (the
   * outbox read first), and the files of those waiting for them go up; from then on new replies go at once.
   */
  const resend = useCallback(async () => {
    await restored.current;
    if (roomChannel.statusOf(chatId) !== 'connected') return;
    flushed.current = true;
    for (const p of stateRef.current.pending) {
      const chosen = files.current.get(p.client_id);
      if (p.status === 'sending') write(p);
      else if (p.status === 'uploading' && chosen) void uploadAndSend(p, chosen);
    }
  }, [chatId, stateRef, write, uploadAndSend]);

  /** The socket dropped: new replies wait for the next open. */
  const onDown = useCallback(() => {
    flushed.current = false;
  }, []);

  const newEntry = (body: string, replyTo?: ReplyQuote): OutboxEntry => ({
    client_id: newClientId(),
    chat_id: chatId,
    body,
    timestamp: new Date().toISOString(),
    seq: nextSeq(),
    thread_root: rootId,
    also_in_chat: alsoInChat,
    ...(replyTo ? { reply_to: replyTo } : {}),
  });

  /** Sends a reply (quoting `replyTo` when given); offline it waits in the outbox, pending. False for blank text. */
  const send = (text: string, replyTo?: ReplyQuote): boolean => {
    const body = text.trim();
    if (!body) return false;
    const entry = newEntry(body, replyTo);
    // Without IndexedDB (a private window may refuse it) the reply still goes; it only cannot outlive the tab.
    void outbox.add(entry).catch(() => undefined);
    const p = threadPendingFrom(entry);
    dispatch({ type: 'pending', pending: p });
    transmit(p);
    return true;
  };

  /** Files sent as one reply, the text typed beside them its caption: uploaded now, or offline at the next open. */
  const sendFiles = (chosen: File[], text: string, replyTo?: ReplyQuote) => {
    if (chosen.length === 0) return;
    const entry = {
      ...newEntry(text.trim(), replyTo),
      files: chosen,
      uploads: chosen.map(uploader.describe),
    };
    void outbox.add(entry).catch(() => undefined);
    files.current.set(entry.client_id, chosen);
    const p = threadPendingFrom(entry);
    dispatch({ type: 'pending', pending: p });
    if (navigator.onLine) void uploadAndSend(p, chosen);
  };

  /** Sends a refused reply again with its client_id (its files again first when they never went up). */
  const retry = (clientId: string) => {
    const p = stateRef.current.pending.find((q) => q.client_id === clientId);
    if (p?.status !== 'error') return;
    threadSends.release(chatId, clientId);
    const chosen = files.current.get(clientId);
    const status = chosen ? ('uploading' as const) : ('sending' as const);
    dispatch({ type: 'pending_update', client_id: clientId, patch: { status, error: undefined } });
    if (chosen) void uploadAndSend(p, chosen);
    else transmit({ ...p, status });
  };

  /** Drops a reply that has not been stored yet: from the pane and the outbox. */
  const cancel = useCallback(
    (clientId: string) => {
      files.current.delete(clientId);
      dispatch({ type: 'pending_remove', client_id: clientId });
      void outbox.remove(clientId).catch(() => undefined);
    },
    [dispatch, outbox],
  );

  return { send, sendFiles, retry, cancel, resend, onDown };
}
