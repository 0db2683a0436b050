import { I18nProvider } from '@lingui/react';
import { type AdminStats, type AdminUser, type AdminUsersPage, AUDIT } from '@parley/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { englishMessages, messagesIn } from '../../../lib/i18n/catalog-files';
import { i18n } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { adminKeys } from '../api/admin-api';
import { count, storageSize } from '../lib/admin-format';
import { AUDIT_TYPE_IDS } from '../lib/admin-texts';
import { OverviewPanel } from './overview-panel';
import { PeoplePanel } from './people-panel';

// The admin console in the reader's language: its figures through Intl, its counts by the language's plural
// rules, the admin API's refusals translated, while what people wrote (names, usernames, emails) is kept from
// translation.

const days = (counts: number[]): AdminStats['messages_per_day'] =>
  counts.map((n, i) => ({ day: `2026-11-${String(i + 1).padStart(2, '0')}`, count: n }));

const stats = (messages: number[]): AdminStats => ({
  people: { total: 1234, activated: 1200, deactivated: 3, admins: 1 },
  messages_per_day: days(messages),
  online_now: 7,
  storage_bytes: 3.5 * 1024 * 1024,
});

const person = (id: number, username: string, name: string): AdminUser => ({
  id,
  username,
  email: `${username}@example.org`,
  displayname: name,
  avatar: null,
  date_joined: '2026-01-15T10:00:00Z',
  last_seen: null,
  is_activated: true,
  is_active: id !== 2,
  deactivated_at: id === 2 ? '2026-02-01T10:00:00Z' : null,
  is_blue_verified: false,
  is_site_admin: false,
  is_online: false,
});

const withI18n = (node: React.ReactNode, client = new QueryClient()) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>{node}</QueryClientProvider>
    </I18nProvider>,
  );

const people = (results: AdminUser[]) => {
  const client = new QueryClient();
  const page: AdminUsersPage = { results, count: results.length, page: 1, page_size: 25 };
  client.setQueryData(adminKeys.users('', 1, 'date_joined', 'desc'), page);
  return withI18n(<PeoplePanel />, client);
};

describe('the admin console in German', () => {
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: englishMessages }));
  const inGerman = () => i18n.loadAndActivate({ locale: 'de', messages: messagesIn('de') });

  it('draws the overview with German words and German figures', () => {
    const english = withI18n(<OverviewPanel stats={stats([1, 0, 2])} />);
    expect(english).toContain('Online now');
    expect(english).toContain('1,200 verified, 3 deactivated');
    expect(english).toContain('3 messages in the last 3 days; the busiest day had 2.');

    inGerman();
    const html = withI18n(<OverviewPanel stats={stats([1, 0, 2])} />);
    expect(html).toContain('Gerade online');
    expect(html).toContain('Belegter Speicher');
    expect(html).toContain('1.200 bestätigt, 3 deaktiviert');
    expect(html).toContain('3,5 MB');
    expect(html).toContain('3 Nachrichten in den letzten 3 Tagen');
    expect(html).not.toContain('Online now');
  });

  it('counts messages and people by the plural rules', () => {
    inGerman();
    const month = [1, ...Array<number>(29).fill(0)];
    expect(withI18n(<OverviewPanel stats={stats(month)} />)).toContain(
      '1 Nachricht in den letzten 30 Tagen; am meisten los war an einem Tag mit 1.',
    );
    const one = people([person(1, 'ada', 'Ada Lovelace')]);
    expect(one).toContain('1 Person');
    const two = people([person(1, 'ada', 'Ada Lovelace'), person(2, 'grace', 'Grace Hopper')]);
    expect(two).toContain('2 Personen');
    expect(two).toContain('Inaktiv');
    expect(two).toContain('Deaktivieren');
    expect(two).toContain('Reaktivieren');
    expect(two).toContain('aria-label="Reaktivieren: Grace Hopper (@grace)"');
    // What people wrote is kept from translation, their usernames and addresses left to right.
    expect(two).toContain('<span translate="no">Grace Hopper</span>');
    expect(two).toMatch(/<span dir="ltr" translate="no"[^>]*>@grace<\/span>/);
    expect(two).toContain('<span dir="ltr" translate="no">grace@example.org</span>');
  });

  it('counts by Arabic’s six plural forms, in Arabic digits', () => {
    i18n.loadAndActivate({ locale: 'ar', messages: messagesIn('ar') });
    const n = (value: number) => new Intl.NumberFormat('ar').format(value);
    expect(i18n._('admin.people.count', { count: 2 })).toBe('شخصان');
    expect(i18n._('admin.people.count', { count: 11 })).toBe(`${n(11)} شخصًا`);
    expect(count(1200, 'ar')).toBe(n(1200));
  });

  it('names audit events and translates the admin API’s refusals', () => {
    inGerman();
    const id = AUDIT_TYPE_IDS[AUDIT.userDeactivated];
    expect(id && i18n._(id)).toBe('Konto deaktiviert');
    expect(localText('This account is already deactivated.')).toBe('Dieses Konto ist bereits deaktiviert.');
    expect(localText('Name at least one email domain.')).toBe('Gib mindestens eine E-Mail-Domain an.');
    expect(storageSize(512, 'de')).toBe('512 Byte');
  });
});
