import { describe, expect, it } from 'vitest';
import { Pace } from './link-previews.service';

describe('Pace', () => {
  it('lets a burst go at once, then one start per 1/rate second', () => {
    // Whole milliseconds from 0: (t + 50) - t is exactly 50, as it need not be for performance.now()'s fractions.
    const t = 0;
    const pace = new Pace(10, 3, t);
    expect([pace.take(t), pace.take(t), pace.take(t)]).toEqual([0, 0, 0]);
    expect(pace.take(t)).toBe(100);
    expect(pace.take(t + 50)).toBe(50);
    expect(pace.take(t + 100)).toBe(0);
    // A quiet spell saves up no more than the burst.
    const later = t + 60_000;
    expect([pace.take(later), pace.take(later), pace.take(later), pace.take(later)]).toEqual([0, 0, 0, 100]);
  });
});
