import { describe, expect, it } from 'vitest';
import { parseRange } from './attachments.routes';

// How a file's Range header is read; resolving a range against a file's size is platform/storage.ts's.
describe('byte ranges', () => {
  it('reads the one range of a Range header and ignores what it cannot serve', () => {
    expect(parseRange('bytes=0-99')).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-')).toEqual({ start: 100, end: undefined });
    expect(parseRange('bytes=-500')).toEqual({ suffix: 500 });
    for (const ignored of [
      undefined,
      '',
      'bytes=-',
      'bytes=0-1,5-9',
      'items=0-1',
      'bytes=a-b',
      'bytes=1-2-3',
    ])
      expect(parseRange(ignored)).toBeUndefined();
  });
});
