import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The module keeps one page's state, so each test loads it afresh, in a "window" with fake timers and frames.
async function load() {
  vi.resetModules();
  return import('./first-screen');
}

describe('first screen', () => {
  let frames: Array<() => void>;
  beforeEach(() => {
    vi.useFakeTimers();
    frames = [];
    vi.stubGlobal('window', {});
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => frames.push(run));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  /** The next frame: its callbacks (before its paint). */
  const paint = () => {
    const due = frames;
    frames = [];
    for (const run of due) run();
  };

  it('holds work back until the first screen has painted and settled', async () => {
    const { afterFirstScreen, firstScreenDrawn } = await load();
    const ran: string[] = [];
    afterFirstScreen(() => ran.push('socket'));
    const cancel = afterFirstScreen(() => ran.push('cancelled'));
    cancel();
    firstScreenDrawn();
    firstScreenDrawn();
    vi.advanceTimersByTime(200);
    expect(ran).toEqual([]);
    paint();
    vi.advanceTimersByTime(100);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(ran).toEqual(['socket']);
    // Afterwards work runs at once.
    afterFirstScreen(() => ran.push('formatter'));
    expect(ran).toEqual(['socket', 'formatter']);
  });

  it('lets the work go after a while when no screen says it has drawn', async () => {
    const { afterFirstScreen } = await load();
    const ran: string[] = [];
    afterFirstScreen(() => ran.push('notifications'));
    vi.advanceTimersByTime(2999);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    // Each waiting piece of work in a task of its own, right after.
    expect(ran).toEqual([]);
    vi.runOnlyPendingTimers();
    expect(ran).toEqual(['notifications']);
  });
});
