import type { ChatFile } from '@parley/protocol';
import { API_BASE_URL } from '../../../lib/http/api-client';
import { ApiError, serverErrorOr } from '../../../lib/http/api-error';
import { t } from '../../../lib/i18n/i18n';
import type { VoiceMeta } from '../../../lib/offline/outbox';
import { browserAuthStorage, readToken } from '../../../lib/session/auth-storage';

export interface UploadOptions {
  /** Called with the share sent so far, 0..1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** The one file is a voice message: its fields go before it (the server reads them first). */
  voice?: VoiceMeta;
}

const parse = (raw: string): unknown => {
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
};

/**
 * POST /api/chats/{chat_id}/attachments/ (multipart, field `files`; a voice message's `kind`, `duration_ms` and
 * `waveform` before it) → the stored files' views, whose ids a
 * `chat_message` then carries. XMLHttpRequest rather than fetch, for upload progress. 413 and 415 are refusals.
 */
export function uploadAttachments(
  chatId: string,
  files: readonly File[],
  { onProgress, signal, voice }: UploadOptions = {},
): Promise<ChatFile[]> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('Upload aborted', 'AbortError'));
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE_URL}/chats/${encodeURIComponent(chatId)}/attachments/`);
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readToken(browserAuthStorage);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = parse(xhr.responseText);
      const files = (body as { files?: unknown } | null)?.files;
      if (xhr.status >= 200 && xhr.status < 300 && Array.isArray(files)) resolve(files as ChatFile[]);
      else reject(new ApiError(xhr.status || 0, body));
    };
    xhr.onerror = () => reject(new ApiError(0, null));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    if (voice) {
      form.append('kind', 'voice');
      form.append('duration_ms', String(voice.duration_ms));
      form.append('waveform', JSON.stringify(voice.waveform));
    }
    for (const file of files) form.append('files', file, file.name);
    xhr.send(form);
  });
}

/** The toast for a failed upload: the server's reason (type refused, too large, ...) or a plain fallback. */
export const uploadErrorText = (error: unknown): string =>
  serverErrorOr(error, t('browse.room.uploadFailed'));
