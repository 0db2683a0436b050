import { I18nProvider } from '@lingui/react';
import type { Message } from '@parley/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundPage } from '../app/not-found-page';
import { messagesIn } from '../lib/i18n/catalog-files';
import { i18n } from '../lib/i18n/i18n';
import { blockedQueryKey } from '../lib/queries/safety';
import { documentTitle } from '../lib/ui/document-title';
import { ChatGone } from './chat-load-states';
import { LatestAnnouncement } from './latest-announcement';
import { SoftwareBadge } from './software-badge';

// The screens every area shares, drawn in German: the 404 page, a chat that is gone, the badge of software, the
// tab's title and what a screen reader hears of a new message, its files counted by German's plural.

const draw = (node: ReactNode) => {
  const client = new QueryClient();
  client.setQueryData(blockedQueryKey, { results: [] });
  return renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>{node}</MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
};

const fromGrace = (files: number, body = '') =>
  ({
    id: 7,
    sender: 2,
    sender_name: 'Grace Hopper',
    sender_username: 'grace',
    kind: 'user',
    is_deleted: false,
    body,
    files: Array.from({ length: files }, (_, i) => ({ id: i })),
  }) as unknown as Message;

describe('the shared screens in German', () => {
  beforeEach(() => i18n.loadAndActivate({ locale: 'de', messages: messagesIn('de') }));
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: messagesIn('en') }));

  it('say that a page or a chat is not there', () => {
    const page = draw(<NotFoundPage />);
    expect(page).toContain('Seite nicht gefunden');
    expect(page).toContain('Zur Startseite');
    expect(page).not.toContain('Page not found');
    const chat = draw(<ChatGone />);
    expect(chat).toContain('Chat nicht gefunden');
    expect(chat).toContain('Zurück zu den Chats');
  });

  it('count the files of a new message by the plural, the sender’s name left as written', () => {
    const one = draw(<LatestAnnouncement messages={[fromGrace(1)]} meId={1} />);
    expect(one).toContain('translate="no">Grace Hopper hat eine Datei gesendet');
    const three = draw(<LatestAnnouncement messages={[fromGrace(3)]} meId={1} />);
    expect(three).toContain('translate="no">Grace Hopper hat 3 Dateien gesendet');
    const said = draw(<LatestAnnouncement messages={[fromGrace(0, 'Hallo')]} meId={1} />);
    expect(said).toContain('translate="no">Grace Hopper: Hallo');
  });

  it('name software and the tab in German', () => {
    expect(draw(<SoftwareBadge label="Bot" />)).toContain('>Bot<');
    expect(documentTitle({ name: 'Meine Chats', raw: false }, 120)).toBe('(99+) Meine Chats · Parley');
  });
});

describe('the shared screens in English', () => {
  it('read as before', () => {
    const one = draw(<LatestAnnouncement messages={[fromGrace(2)]} meId={1} />);
    expect(one).toContain('translate="no">Grace Hopper sent 2 files');
    expect(draw(<NotFoundPage />)).toContain('The page you are looking for does not exist or has moved.');
  });
});
