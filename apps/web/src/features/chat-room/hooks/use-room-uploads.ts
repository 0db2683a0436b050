import { type Dispatch, useCallback, useRef } from 'react';
import { toast } from 'react-toastify';
import { newClientId } from '../../../lib/chat-socket';
import { uploadAttachments, uploadErrorText } from '../api/upload-attachments';
import { guessFileType } from '../lib/attachment-files';
import type { RoomAction } from '../lib/room-messages';
import { wholePercents } from '../lib/upload-progress';

// Files sent into the room (SPEC §5): uploaded first, with the progress on a pending message, then sent as one
// message carrying their ids. Leaving the room cancels the uploads under way.

export function useRoomUploads(
  chatId: string,
  dispatch: Dispatch<RoomAction>,
  sendUploaded: (pending: { body: string; client_id: string; file_ids: number[] }) => void,
) {
  /** Uploads under way. */
  const uploads = useRef(new Set<AbortController>());

  /**
   * Uploads files (the composer checked type and size) and then sends them as one message. A refusal (type,
   * size) is a toast and sends nothing. Sent while offline, the message waits for the reconnect's resend.
   */
  const sendFiles = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      const client_id = newClientId();
      dispatch({
        type: 'pending',
        pending: {
          client_id,
          body: '',
          timestamp: new Date().toISOString(),
          status: 'uploading',
          progress: 0,
          uploads: files.map((f) => ({ name: f.name, size: f.size, type: guessFileType(f) })),
        },
      });
      const controller = new AbortController();
      uploads.current.add(controller);
      let fileIds: number[];
      try {
        const stored = await uploadAttachments(chatId, files, {
          signal: controller.signal,
          onProgress: wholePercents((progress) =>
            dispatch({ type: 'pending_update', client_id, patch: { progress } }),
          ),
        });
        fileIds = stored.map((f) => f.id);
      } catch (e) {
        if (controller.signal.aborted) return;
        dispatch({ type: 'pending_remove', client_id });
        toast.error(uploadErrorText(e));
        return;
      } finally {
        uploads.current.delete(controller);
      }
      dispatch({
        type: 'pending_update',
        client_id,
        patch: { status: 'sending', progress: 1, file_ids: fileIds },
      });
      sendUploaded({ body: '', client_id, file_ids: fileIds });
    },
    [chatId, dispatch, sendUploaded],
  );

  /** Leaving the room: every upload under way stops. */
  const abortAll = useCallback(() => {
    for (const upload of uploads.current) upload.abort();
    uploads.current.clear();
  }, []);

  return { sendFiles, abortAll };
}
