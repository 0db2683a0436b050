import { VOICE_WAVEFORM_LENGTH } from '@parley/protocol';
import type { Json } from '../helpers/test-app';

// What the voice message tests share: an upload with the voice fields as the web app sends them (before the
// file), and a waveform that rises and falls.

export const WAVEFORM = Array.from({ length: VOICE_WAVEFORM_LENGTH }, (_, i) => (i * 37) % 256);

export interface VoiceUpload {
  bytes: Buffer;
  filename?: string;
  /** The multipart text fields, in order; `fieldsAfter` sends them after the file instead. */
  fields?: Record<string, string>;
  fieldsAfter?: boolean;
}

export const voiceFields = (over: Record<string, string> = {}) => ({
  kind: 'voice',
  duration_ms: '3200',
  waveform: JSON.stringify(WAVEFORM),
  ...over,
});

/** POST /api/chats/{id}/attachments/ at `baseUrl` (a test app's or a process's), as multipart. */
export async function uploadVoice(baseUrl: string, token: string, chatId: string, upload: VoiceUpload) {
  const form = new FormData();
  const fields = Object.entries(upload.fields ?? voiceFields());
  const file = () =>
    form.append(
      'files',
      new Blob([upload.bytes], { type: 'audio/webm' }),
      upload.filename ?? 'Voice message.webm',
    );
  if (upload.fieldsAfter) file();
  for (const [name, value] of fields) form.append(name, value);
  if (!upload.fieldsAfter) file();
  const res = await fetch(`${baseUrl}/api/chats/${chatId}/attachments/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, text, body: (text ? JSON.parse(text) : null) as Json };
}
