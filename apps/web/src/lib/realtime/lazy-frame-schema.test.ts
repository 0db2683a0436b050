import { serverFrameSchema } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { lazyFrameSchema } from './lazy-frame-schema';

describe('lazyFrameSchema', () => {
  it('parses once loaded, refuses to parse before, and loads once', async () => {
    let loads = 0;
    const frames = lazyFrameSchema(async () => {
      loads++;
      return serverFrameSchema;
    });
    expect(() => frames.schema.safeParse({ type: 'in_chat_count', count: 1 })).toThrow('not loaded');
    await Promise.all([frames.ready(), frames.ready()]);
    await frames.ready();
    expect(loads).toBe(1);
    expect(frames.schema.safeParse({ type: 'in_chat_count', count: 1 })).toMatchObject({ success: true });
    expect(frames.schema.safeParse({ type: 'in_chat_count', count: '1' })).toMatchObject({ success: false });
  });

  it('tries a failed load again (offline) on the next attempt', async () => {
    let fail = true;
    const frames = lazyFrameSchema(async () => {
      if (fail) throw new Error('offline');
      return serverFrameSchema;
    });
    await expect(frames.ready()).rejects.toThrow('offline');
    fail = false;
    await frames.ready();
    expect(frames.schema.safeParse({ type: 'in_chat_count', count: 1 })).toMatchObject({ success: true });
  });
});
