import { I18nProvider } from '@lingui/react';
import { OFFLINE_TEXT, SOCKET_CLIENT_TEXT } from '@parley/protocol';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import en from '../../../../../../packages/protocol/catalogs/en.json';
import { i18n } from '../../../lib/i18n/i18n';
import { ConnectionStrip, roomBannerError } from './connection-strip';

const { connectionError } = SOCKET_CLIENT_TEXT;
const draw = (node: ReactNode) => renderToStaticMarkup(<I18nProvider i18n={i18n}>{node}</I18nProvider>);

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
    const html = draw(
      <ConnectionStrip status="reconnecting" retryAt={null} online storedCopy={false} onTryNow={() => {}} />,
    );
    expect(html).toContain(`${connectionError}. Reconnecting…`);
    expect(html).toContain('bg-red-50');
    const offline = draw(
      <ConnectionStrip status="reconnecting" retryAt={null} online={false} storedCopy={false} />,
    );
    expect(offline).toContain(OFFLINE_TEXT.bar);
  });
});

describe('the strip in English', () => {
  it("says the protocol's texts word for word", () => {
    expect(en['room.strip.offline']).toBe(OFFLINE_TEXT.bar);
    expect(en['room.strip.connectionError']).toBe(`${connectionError}.`);
  });
});
