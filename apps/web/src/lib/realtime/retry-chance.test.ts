import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onRetryChance } from './retry-chance';

describe('onRetryChance', () => {
  // The unit tier runs in Node: bare event targets stand in for the browser's window and document.
  let visibility: DocumentVisibilityState;
  beforeEach(() => {
    visibility = 'hidden';
    vi.stubGlobal('window', new EventTarget());
    const doc = new EventTarget();
    Object.defineProperty(doc, 'visibilityState', { get: () => visibility });
    vi.stubGlobal('document', doc);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('fires when the browser is online again and when the page is shown, until unsubscribed', () => {
    const run = vi.fn();
    const stop = onRetryChance(run);
    window.dispatchEvent(new Event('online'));
    expect(run).toHaveBeenCalledTimes(1);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(run).toHaveBeenCalledTimes(1);
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(run).toHaveBeenCalledTimes(2);
    stop();
    window.dispatchEvent(new Event('online'));
    document.dispatchEvent(new Event('visibilitychange'));
    expect(run).toHaveBeenCalledTimes(2);
  });
});
