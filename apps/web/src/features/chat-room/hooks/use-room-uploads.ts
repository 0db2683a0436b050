import { type ReplyQuote, VOICE_TEXT } from '@parley/protocol';
import { type Dispatch, useCallback, useMemo, useRef } from 'react';
import { isApiError } from '../../../lib/http/api-error';
import { nextSeq, type OutboxEntry, outboxFor, type VoiceMeta } from '../../../lib/offline/outbox';
import { newClientId } from '../../../lib/realtime/chat-socket';
import { toast } from '../../../lib/ui/toast';
import { uploadAttachments, uploadErrorText } from '../api/upload-attachments';
import { guessFileType } from '../lib/attachment-files';
import type { RoomAction } from '../lib/room-messages';
import { wholePercents } from '../lib/upload-progress';
import type { Sendable } from './use-pending-messages';

// Files sent into the room (SPEC §5): uploaded first, with the progress on a pending message, then sent as one
// message carrying their ids and the caption typed with them. The chosen files wait in the outbox until they are up: chosen offline,
// or cut off by a drop, a reload or leaving the room, they are uploaded at the room's next open; once up, only
// their ids are kept, so they are never uploaded twice.

/** The text sent with files, and the message it answers. */
type Caption = Pick<OutboxEntry, 'body' | 'reply_to'>;

/** A refusal of the files themselves (type, size, ...): trying again will not help. */
const refused = (error: unknown) =>
  isApiError(error) &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 408 &&
  error.status !== 429;

export function useRoomUploads(
  chatId: string,
  meId: number,
  dispatch: Dispatch<RoomAction>,
  sendUploaded: (pending: Sendable) => void,
  /** Sending ends this user's typing. */
  stopTyping: () => void,
) {
  const outbox = useMemo(() => outboxFor(meId), [meId]);
  /** Uploads under way, by the client_id of their message. */
  const uploads = useRef(new Map<string, AbortController>());

  /**
   * Uploads a pending message's files, then sends it. A refusal (type, size) is a toast and drops the message;
   * a network failure leaves it waiting in the outbox for the next open.
   */
  const upload = useCallback(
    async ({
      client_id,
      body,
      reply_to,
      files,
      voice,
    }: Caption & { client_id: string; files: File[]; voice?: VoiceMeta }) => {
      if (uploads.current.has(client_id)) return;
      const controller = new AbortController();
      uploads.current.set(client_id, controller);
      let fileIds: number[];
      try {
        const stored = await uploadAttachments(chatId, files, {
          voice,
          signal: controller.signal,
          onProgress: wholePercents((progress) =>
            dispatch({ type: 'pending_update', client_id, patch: { progress } }),
          ),
        });
        fileIds = stored.map((f) => f.id);
      } catch (e) {
        if (controller.signal.aborted) return;
        if (refused(e)) {
          dispatch({ type: 'pending_remove', client_id });
          toast.error(uploadErrorText(e));
        } else {
          dispatch({ type: 'pending_update', client_id, patch: { progress: 0 } });
        }
        return;
      } finally {
        if (uploads.current.get(client_id) === controller) uploads.current.delete(client_id);
      }
      await outbox.patch(client_id, { file_ids: fileIds, files: undefined }).catch(() => undefined);
      dispatch({
        type: 'pending_update',
        client_id,
        patch: { status: 'sending', progress: 1, file_ids: fileIds },
      });
      sendUploaded({ body, client_id, file_ids: fileIds, ...(reply_to ? { reply_to } : {}) });
    },
    [chatId, outbox, dispatch, sendUploaded],
  );

  /**
   * Sends files (the composer checked type and size) as one message, with the text typed beside them as its
   * caption and the message it answers: kept in the outbox with the message, then uploaded at once when the
   * browser is online (otherwise at the next open). With `voice`, the one file is a voice message.
   */
  const sendFiles = useCallback(
    async (files: File[], text = '', replyTo?: ReplyQuote, voice?: VoiceMeta) => {
      if (files.length === 0) return;
      stopTyping();
      const caption: Caption = { body: text.trim(), ...(replyTo ? { reply_to: replyTo } : {}) };
      const client_id = newClientId();
      const timestamp = new Date().toISOString();
      const shown = files.map((f) => ({
        name: voice ? VOICE_TEXT.voiceMessage : f.name,
        size: f.size,
        type: voice ? ('audio' as const) : guessFileType(f),
      }));
      dispatch({
        type: 'pending',
        pending: { client_id, ...caption, timestamp, status: 'uploading', progress: 0, uploads: shown },
      });
      await outbox
        .add({
          client_id,
          chat_id: chatId,
          ...caption,
          timestamp,
          seq: nextSeq(),
          files,
          uploads: shown,
          ...(voice ? { voice } : {}),
        })
        .catch(() => undefined);
      if (navigator.onLine) await upload({ client_id, ...caption, files, voice });
    },
    [chatId, outbox, dispatch, upload, stopTyping],
  );

  /** After an open: the files of this chat's messages still waiting for them go up, oldest first. */
  const resume = useCallback(async () => {
    const waiting = await outbox.forChat(chatId).catch(() => []);
    for (const entry of waiting) {
      if (entry.files?.length && !entry.file_ids) await upload({ ...entry, files: entry.files });
    }
  }, [chatId, outbox, upload]);

  /** A cancelled message: its upload stops. */
  const abort = useCallback((clientId: string) => {
    uploads.current.get(clientId)?.abort();
    uploads.current.delete(clientId);
  }, []);

  /** Leaving the room: every upload under way stops (their files wait in the outbox). */
  const abortAll = useCallback(() => {
    for (const upload of uploads.current.values()) upload.abort();
    uploads.current.clear();
  }, []);

  return { sendFiles, resume, abort, abortAll };
}
