import { describe, expect, it } from 'vitest';
import { wholePercents } from './upload-progress';

describe('wholePercents', () => {
  it('reports each whole percent once, as a fraction', () => {
    const seen: number[] = [];
    const onProgress = wholePercents((f) => seen.push(f));
    for (const f of [0, 0.001, 0.009, 0.01, 0.015, 0.5, 0.505, 0.999, 1]) onProgress(f);
    expect(seen).toEqual([0.01, 0.5, 0.99, 1]);
  });
});
