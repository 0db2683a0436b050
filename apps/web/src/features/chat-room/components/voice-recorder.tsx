import { Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { clockOf } from '../../../components/audio/audio-format';
import { t, useT } from '../../../lib/i18n/i18n';
import { peaksOf, voiceDuration } from '../lib/waveform-peaks';

// The voice recorder, loaded the first time the microphone button is pressed (use-voice-recorder.ts): the
// recording itself (MediaRecorder, Opus in WebM where the browser has it), the waveform computed from the
// recording once it ends (Web Audio decodes it, peaksOf takes each 64th's peak), and the strip the composer
// shows while it records.

/** What a recording became: the file to upload and a voice message's fields. */
export interface Recording {
  file: File;
  durationMs: number;
  waveform: number[];
}

export interface RecordingSession {
  /** Ends the recording and measures it. */
  stop(): Promise<Recording>;
  /** Ends it and throws it away. */
  cancel(): void;
}

/** The browser could not record: the sentence to show. */
export class MicrophoneError extends Error {}

/** The formats MediaRecorder is asked for, best first (Chromium and Firefox: WebM/Opus; Safari: MP4/AAC). */
const FORMATS = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm', 'audio/mp4'];
const EXTENSION: Record<string, string> = { 'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/mp4': 'm4a' };
/** The rate the recording is decoded at to find its peaks: a 15-minute message stays a few MB of samples. */
const DECODE_RATE = 8000;

function microphoneError(err: unknown): MicrophoneError {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return new MicrophoneError(t('room.voice.micDenied'));
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return new MicrophoneError(t('room.voice.micMissing'));
  return new MicrophoneError(t('room.voice.micUnsupported'));
}

/** Asks for the microphone and starts recording; `onLimit` when it reaches `maxMs` (the caller stops it). */
export async function startRecording({ maxMs, onLimit }: { maxMs: number; onLimit: () => void }) {
  if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined')
    throw new MicrophoneError(t('room.voice.micUnsupported'));
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  } catch (err) {
    throw microphoneError(err);
  }
  const asked = FORMATS.find((type) => MediaRecorder.isTypeSupported(type));
  const recorder = new MediaRecorder(stream, asked ? { mimeType: asked } : undefined);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  };
  recorder.start(1000);
  const startedAt = performance.now();
  const limit = setTimeout(onLimit, maxMs);
  const release = () => {
    clearTimeout(limit);
    for (const track of stream.getTracks()) track.stop();
  };
  const session: RecordingSession = {
    cancel() {
      recorder.onstop = null;
      if (recorder.state !== 'inactive') recorder.stop();
      release();
    },
    stop() {
      return new Promise<Recording>((resolve) => {
        const finish = () => {
          release();
          const elapsed = Math.min(maxMs, performance.now() - startedAt);
          const type = (recorder.mimeType || asked || 'audio/webm').split(';')[0] as string;
          const blob = new Blob(chunks, { type });
          const file = new File([blob], `Voice message.${EXTENSION[type] ?? 'webm'}`, { type });
          void measure(blob, elapsed).then(({ durationMs, waveform }) =>
            resolve({ file, durationMs, waveform }),
          );
        };
        if (recorder.state === 'inactive') return finish();
        recorder.onstop = finish;
        recorder.stop();
      });
    },
  };
  return session;
}

/**
 * The recording's length and waveform from its decoded samples; what the timer measured and a flat line when
 * the browser cannot decode what it recorded.
 */
async function measure(blob: Blob, elapsedMs: number): Promise<{ durationMs: number; waveform: number[] }> {
  try {
    const context = new OfflineAudioContext(1, DECODE_RATE, DECODE_RATE);
    const audio = await context.decodeAudioData(await blob.arrayBuffer());
    return { durationMs: voiceDuration(audio.duration * 1000), waveform: peaksOf(audio.getChannelData(0)) };
  } catch {
    return { durationMs: voiceDuration(elapsedMs), waveform: peaksOf(new Float32Array(0)) };
  }
}

/**
 * What the composer shows while recording: a red dot and the time, a hint, and Cancel. The state is announced
 * by the composer's own live region (it speaks before this has loaded).
 */
export default function RecorderStrip({
  startedAt,
  holding,
  onCancel,
}: {
  startedAt: number;
  /** The button is held: releasing sends, sliding away cancels. */
  holding: boolean;
  onCancel: () => void;
}) {
  const tr = useT();
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="flex min-h-10 min-w-0 flex-1 items-center gap-3" data-testid="voice-recorder">
      <button
        type="button"
        onClick={onCancel}
        aria-label={tr('room.voice.cancel')}
        title={tr('room.voice.cancel')}
        className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-600 transition-colors hover:bg-red-50 hover:text-red-700 dark:text-slate-300 dark:hover:bg-red-950 dark:hover:text-red-300"
      >
        <Trash2 aria-hidden="true" className="size-5" />
      </button>
      <span aria-hidden="true" className="size-2.5 shrink-0 animate-pulse rounded-full bg-red-600" />
      <span
        className="text-sm font-medium tabular-nums text-slate-900 dark:text-slate-100"
        data-testid="voice-timer"
      >
        {clockOf(now - startedAt)}
      </span>
      <span className="min-w-0 truncate text-sm text-slate-600 dark:text-slate-300">
        {holding ? tr('room.voice.release') : tr('room.voice.recording')}
      </span>
    </div>
  );
}
