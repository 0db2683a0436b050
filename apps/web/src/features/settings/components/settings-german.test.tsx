import { I18nProvider } from '@lingui/react';
import type { SessionInfo, TotpStatus } from '@parley/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messagesIn } from '../../../lib/i18n/catalog-files';
import { i18n } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { sessionsQueryKey } from '../api/list-sessions';
import { twoStepQueryKey } from '../api/two-step-status';
import { SessionsSection } from './sessions-section';
import { TwoStepSection } from './two-step-section';

// Settings' account sections drawn in German: two-step sign-in with its recovery codes counted by German's
// plural, the sessions with the device named in German and the browser and system as the server named them, and
// a server refusal these screens meet.

const draw = (node: ReactNode, data: Array<[readonly unknown[], unknown]>) => {
  const client = new QueryClient();
  for (const [key, value] of data) client.setQueryData(key, value);
  return renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>{node}</MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
};

const twoStep = (status: TotpStatus) => draw(<TwoStepSection />, [[twoStepQueryKey, status]]);

const session: SessionInfo = {
  id: 1,
  device: 'Desktop',
  browser: 'Firefox',
  os: 'Linux',
  ip: '203.0.113.7',
  created_at: '2026-11-20T09:30:00Z',
  last_active: '2026-11-28T17:05:00Z',
  current: true,
};

describe('Settings in German', () => {
  beforeEach(() => i18n.loadAndActivate({ locale: 'de', messages: messagesIn('de') }));
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: messagesIn('en') }));

  it('counts the recovery codes left by German’s plural', () => {
    const one = twoStep({ enabled: true, recovery_codes_left: 1 });
    expect(one).toContain('Zwei-Schritt-Anmeldung');
    expect(one).toContain('An.');
    expect(one).toContain('1 Wiederherstellungscode übrig.');
    expect(one).toContain('Zwei-Schritt-Anmeldung ausschalten');
    expect(one).toContain('Aktuelles Passwort');
    expect(twoStep({ enabled: true, recovery_codes_left: 7 })).toContain('7 Wiederherstellungscodes übrig.');
    expect(twoStep({ enabled: false, recovery_codes_left: 0 })).toContain(
      'Zwei-Schritt-Anmeldung einrichten',
    );
  });

  it('names a session in German, the browser and system as sent and kept from translation', () => {
    const html = draw(<SessionsSection />, [[sessionsQueryKey, [session]]]);
    expect(html).toContain('Sitzungen');
    expect(html).toContain(
      '<span translate="no" dir="ltr">Firefox</span> unter <span translate="no" dir="ltr">Linux</span>',
    );
    expect(html).toContain('Dieses Gerät');
    expect(html).toContain('Computer');
    expect(html).toContain('Angemeldet am <time dateTime="2026-11-20T09:30:00Z">');
    expect(html).toContain('<span translate="no" dir="ltr">203.0.113.7</span>');
    expect(html).toContain('Alle anderen Sitzungen abmelden');
    expect(html).not.toMatch(/Sign out|Signed in|This device/);
  });

  it('shows the server’s refusals of these screens in German', () => {
    expect(localText('This is already your email address.')).toBe('Das ist bereits deine E-Mail-Adresse.');
    expect(localText('A bot can have at most 50 commands.')).toBe('Ein Bot kann höchstens 50 Befehle haben.');
  });
});
