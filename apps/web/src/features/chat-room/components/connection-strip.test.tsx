import { OFFLINE_TEXT, SOCKET_CLIENT_TEXT } from '@parley/protocol';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConnectionStrip, roomBannerError } from './connection-strip';

const { connectionError } = SOCKET_CLIENT_TEXT;

describe('an outage is said once', () => {
  it("keeps SPEC's 'Connection error' out of the red banner while the strip tells the connection", () => {
    for (const state of [
      { status: 'reconnecting', online: true, storedCopy: false },
      { status: 'connecting', online: true, storedCopy: true },
      { status: 'connected', online: false, storedCopy: false },
    ] as const)
      expect(roomBannerError(connectionError, state), JSON.stringify(state)).toBeNull();
  });

  it('leaves the banner every other error, and the connection error when no strip says it', () => {
    const reconnecting = { status: 'reconnecting', online: true, storedCopy: false } as const;
    expect(roomBannerError(SOCKET_CLIENT_TEXT.notFound, reconnecting)).toBe(SOCKET_CLIENT_TEXT.notFound);
    expect(roomBannerError('Failed to send message. Please try again.', reconnecting)).toBe(
      'Failed to send message. Please try again.',
    );
    expect(roomBannerError(connectionError, { status: 'connecting', online: true, storedCopy: false })).toBe(
      connectionError,
    );
    expect(roomBannerError(null, reconnecting)).toBeNull();
  });

  it("says SPEC's 'Connection error' in the strip itself while it tries again", () => {
    const html = renderToStaticMarkup(
      <ConnectionStrip status="reconnecting" retryAt={null} online storedCopy={false} onTryNow={() => {}} />,
    );
    expect(html).toContain(`${connectionError}. Reconnecting…`);
    expect(html).toContain('bg-red-50');
    const offline = renderToStaticMarkup(
      <ConnectionStrip status="reconnecting" retryAt={null} online={false} storedCopy={false} />,
    );
    expect(offline).toContain(OFFLINE_TEXT.bar);
  });
});
