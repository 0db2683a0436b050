// Voice messages and audio files: the limits and texts both sides share. No zod here (voice-fields.ts holds the
// upload's schema), so the composer can read them without loading it.

/** How many bars a voice message's waveform has: the peak of each 64th of the recording, 0..255. */
export const VOICE_WAVEFORM_LENGTH = 64;
/** The longest voice message: the recorder stops there and the server refuses longer. */
export const VOICE_MAX_DURATION_MS = 15 * 60_000;
/** The playback speeds the player offers, in the order its button cycles through them. */
export const AUDIO_SPEEDS = [1, 1.5, 2] as const;

export const VOICE_TEXT = {
  badKind: "kind must be 'voice'.",
  badDuration: `duration_ms must be a whole number of milliseconds from 1 to ${VOICE_MAX_DURATION_MS}.`,
  badWaveform: `waveform must be a JSON array of exactly ${VOICE_WAVEFORM_LENGTH} whole numbers from 0 to 255.`,
  fieldsFirst: 'Send kind, duration_ms and waveform before the file.',
  oneFile: 'A voice message is one audio file.',
  notAudio: 'A voice message must be an audio file.',
  /** PUT …/messages/{id}/played/ */
  notVoice: 'This message has no voice message.',
  onlyPrivate: 'Voice messages are marked played only in private chats.',
  onlyRecipient: 'Only the person a voice message was sent to marks it played.',
  /** The browser's microphone. */
  micDenied: 'Parley cannot use your microphone. Allow it in your browser’s site settings to record.',
  micMissing: 'No microphone was found.',
  micUnsupported: 'This browser cannot record voice messages.',
  /** What stands for a voice message in a line (the chat list, an upload in progress). */
  voiceMessage: 'Voice message',
} as const;
