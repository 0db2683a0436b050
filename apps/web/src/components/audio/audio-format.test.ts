import { describe, expect, it } from 'vitest';
import { barHeights, clockOf, seekByKey, spokenLength } from './audio-format';

describe('clockOf and spokenLength', () => {
  it('write lengths as a clock and as words', () => {
    expect(clockOf(0)).toBe('0:00');
    expect(clockOf(7_900)).toBe('0:07');
    expect(clockOf(150_000)).toBe('2:30');
    expect(clockOf(3_725_000)).toBe('1:02:05');
    expect(clockOf(undefined)).toBe('--:--');
    expect(clockOf(Number.POSITIVE_INFINITY)).toBe('--:--');
    expect(spokenLength(1_000)).toBe('1 second');
    expect(spokenLength(150_000)).toBe('2 minutes 30 seconds');
    expect(spokenLength(120_000)).toBe('2 minutes');
  });
});

describe('barHeights', () => {
  it('scales a waveform to 0..1 with a sliver for silence, and even bars without one', () => {
    expect(barHeights([0, 255, 51])).toEqual([0.08, 1, 0.2]);
    const even = barHeights(undefined);
    expect(even).toHaveLength(64);
    expect(new Set(even).size).toBe(1);
  });
});

describe('seekByKey', () => {
  it('moves by 5 s (10 s past a minute), three steps by page, to the ends by Home and End', () => {
    expect(seekByKey('ArrowRight', 1_000, 12_000)).toBe(6_000);
    expect(seekByKey('ArrowLeft', 1_000, 12_000)).toBe(0);
    expect(seekByKey('ArrowUp', 10_000, 12_000)).toBe(12_000);
    expect(seekByKey('PageUp', 0, 600_000)).toBe(30_000);
    expect(seekByKey('End', 0, 600_000)).toBe(600_000);
    expect(seekByKey('Home', 9_000, 12_000)).toBe(0);
    expect(seekByKey('a', 0, 12_000)).toBeNull();
  });
});
