import { z } from 'zod';
import { VOICE_MAX_DURATION_MS, VOICE_TEXT, VOICE_WAVEFORM_LENGTH } from './voice';

// A voice message's upload: the multipart fields sent before its file (POST /api/chats/{chat_id}/attachments/).

/** The waveform as stored and shown: exactly 64 peaks, each 0..255. */
const peak = z
  .number({ error: VOICE_TEXT.badWaveform })
  .int(VOICE_TEXT.badWaveform)
  .min(0, VOICE_TEXT.badWaveform)
  .max(255, VOICE_TEXT.badWaveform);
export const voiceWaveformSchema = z
  .array(peak, { error: VOICE_TEXT.badWaveform })
  .length(VOICE_WAVEFORM_LENGTH, VOICE_TEXT.badWaveform);

const waveformText = z
  .string()
  .max(VOICE_WAVEFORM_LENGTH * 4 + 2, VOICE_TEXT.badWaveform)
  // Parsed as JSON, then checked whole by the schema (the cast only lets the pipe take what JSON gave).
  .transform((raw, ctx) => {
    try {
      return JSON.parse(raw) as number[];
    } catch {
      ctx.addIssue({ code: 'custom', message: VOICE_TEXT.badWaveform });
      return z.NEVER;
    }
  })
  .pipe(voiceWaveformSchema);

/**
 * The fields as multipart carries them (text): `kind` 'voice', `duration_ms` 1..15 minutes, `waveform` a JSON
 * array of 64 integers 0..255. Parsed into the file's own fields.
 */
export const voiceFieldsSchema = z.object({
  kind: z.literal('voice', { error: VOICE_TEXT.badKind }),
  duration_ms: z
    .string()
    .regex(/^\d{1,9}$/, VOICE_TEXT.badDuration)
    .transform(Number)
    .pipe(z.number().min(1, VOICE_TEXT.badDuration).max(VOICE_MAX_DURATION_MS, VOICE_TEXT.badDuration)),
  waveform: waveformText,
});
export type VoiceFields = z.output<typeof voiceFieldsSchema>;
