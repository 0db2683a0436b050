import { compileMessage } from '@lingui/message-utils/compileMessage';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messagesIn } from '../../../lib/i18n/catalog-files';
import { i18n } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { SystemLine } from './system-line';

// The system lines the server writes in English ('Ada added Grace'), in the reader's language.

const draw = (node: ReactNode) => renderToStaticMarkup(<I18nProvider i18n={i18n}>{node}</I18nProvider>);

describe('SystemLine', () => {
  beforeEach(() => {
    i18n.setMessagesCompiler(compileMessage);
    i18n.loadAndActivate({ locale: 'de', messages: messagesIn('de') });
  });
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: messagesIn('en') }));

  it('says a system line in German, the names as they were written', () => {
    expect(draw(<SystemLine body="Ada Lovelace added Grace" />)).toBe(
      '<span translate="no">Ada Lovelace</span> hat <span translate="no">Grace</span> hinzugefügt',
    );
    expect(draw(<SystemLine body="Ada renamed the group to Lunch added" />)).toBe(
      '<span translate="no">Ada</span> hat die Gruppe in <span translate="no">Lunch added</span> umbenannt',
    );
    expect(draw(<SystemLine body="Something new" />)).toBe('Something new');
  });

  it('is known to localText too, and reads as sent in English', () => {
    expect(localText('Ada pinned a message')).toBe('Ada hat eine Nachricht angeheftet');
    i18n.loadAndActivate({ locale: 'en', messages: messagesIn('en') });
    expect(draw(<SystemLine body="Ada removed a member" />)).toBe(
      '<span translate="no">Ada</span> removed a member',
    );
  });
});
