import { voiceFieldsSchema } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { peaksOf, voiceDuration } from './waveform-peaks';

describe('peaksOf', () => {
  it('takes the loudest sample of each bucket, the loudest of all at 255', () => {
    const samples = new Float32Array(640);
    for (let i = 0; i < 640; i++) samples[i] = (i % 10 === 0 ? 1 : 0.1) * (i < 320 ? 0.5 : -0.25);
    const peaks = peaksOf(samples);
    expect(peaks).toHaveLength(64);
    expect(peaks.slice(0, 32).every((p) => p === 255)).toBe(true);
    expect(peaks.slice(32).every((p) => p === 128)).toBe(true);
  });

  it('gives zeros for silence and for nothing, and works on fewer samples than bars', () => {
    expect(peaksOf(new Float32Array(1000).fill(0.0001))).toEqual(Array(64).fill(0));
    expect(peaksOf(new Float32Array(0))).toEqual(Array(64).fill(0));
    const short = peaksOf(new Float32Array([0.2, 0.4]));
    expect(short).toHaveLength(64);
    expect(Math.max(...short)).toBe(255);
  });

  it('is what the server takes as a waveform, with the duration clamped to its range', () => {
    const samples = Float32Array.from({ length: 48_000 }, (_, i) => Math.sin(i / 7) * (i / 48_000));
    const fields = {
      kind: 'voice',
      duration_ms: String(voiceDuration(1000.4)),
      waveform: JSON.stringify(peaksOf(samples)),
    };
    expect(voiceFieldsSchema.safeParse(fields).success).toBe(true);
    expect(voiceDuration(0)).toBe(1);
    expect(voiceDuration(Number.NaN)).toBe(1);
    expect(voiceDuration(20 * 60_000)).toBe(900_000);
  });
});
