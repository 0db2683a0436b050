import { VOICE_MAX_DURATION_MS, VOICE_WAVEFORM_LENGTH } from '@parley/protocol';

// A recording's waveform as a voice message carries it: the loudest sample of each 64th of the recording,
// scaled so the loudest of all is 255 (a quiet voice fills the bars as a loud one does); silence stays 0.

/** Peaks below this (about -60 dBFS) are silence: scaling them up would draw noise as speech. */
const SILENCE = 0.001;

export function peaksOf(samples: Float32Array, count: number = VOICE_WAVEFORM_LENGTH): number[] {
  const peaks = new Array<number>(count).fill(0);
  if (samples.length === 0) return peaks;
  for (let bucket = 0; bucket < count; bucket++) {
    const from = Math.floor((bucket * samples.length) / count);
    const to = Math.max(from + 1, Math.floor(((bucket + 1) * samples.length) / count));
    let peak = 0;
    for (let i = from; i < to && i < samples.length; i++) {
      const v = Math.abs(samples[i] as number);
      if (v > peak) peak = v;
    }
    peaks[bucket] = peak;
  }
  const loudest = Math.max(...peaks);
  if (loudest < SILENCE) return peaks.map(() => 0);
  return peaks.map((p) => Math.min(255, Math.round((p / loudest) * 255)));
}

/** A recording's length as the server takes it: whole milliseconds, 1 to 15 minutes. */
export const voiceDuration = (ms: number): number =>
  Math.min(VOICE_MAX_DURATION_MS, Math.max(1, Math.round(Number.isFinite(ms) ? ms : 1)));
