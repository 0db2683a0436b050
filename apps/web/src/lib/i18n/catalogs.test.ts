import { setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { LOCALES, type Locale, SAFETY_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import ar from '../../../../../packages/protocol/catalogs/ar.json';
import de from '../../../../../packages/protocol/catalogs/de.json';
import en from '../../../../../packages/protocol/catalogs/en.json';
import es from '../../../../../packages/protocol/catalogs/es.json';
import fr from '../../../../../packages/protocol/catalogs/fr.json';
import ptBR from '../../../../../packages/protocol/catalogs/pt-BR.json';

// The catalogs: every language has every message of the English one (and no other), each parses as ICU, and the
// plurals follow each language's rules.

const catalogs: Record<Locale, Record<string, string>> = { en, de, fr, es, 'pt-BR': ptBR, ar };

function i18nIn(locale: Locale) {
  const i18n = setupI18n();
  i18n.setMessagesCompiler(compileMessage);
  i18n.loadAndActivate({ locale, messages: catalogs[locale] });
  return i18n;
}

describe('the catalogs', () => {
  it('cover every language, each with exactly the English messages', () => {
    expect(Object.keys(catalogs).sort()).toEqual([...LOCALES].sort());
    const ids = Object.keys(en).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(catalogs[locale]).sort(), locale).toEqual(ids);
      for (const [id, text] of Object.entries(catalogs[locale]))
        expect(text.trim(), `${locale} ${id}`).not.toBe('');
    }
  });

  it('parse as ICU messages with the placeholders of the English one', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();
    for (const locale of LOCALES)
      for (const [id, text] of Object.entries(catalogs[locale])) {
        expect(() => compileMessage(text), `${locale} ${id}`).not.toThrow();
        expect(new Set(placeholders(text)), `${locale} ${id}`).toEqual(
          new Set(placeholders(en[id as keyof typeof en])),
        );
      }
  });

  it('repeat a protocol text word for word where they show one', () => {
    expect(en['settings.blocked.none']).toBe(SAFETY_TEXT.noneBlocked);
  });

  it('count chats by each language’s plural rules', () => {
    const counts = (locale: Locale) =>
      [0, 1, 2, 3, 11, 100].map((count) => i18nIn(locale)._('chats.count', { count }));
    expect(counts('en')).toEqual(['0 chats', '1 chat', '2 chats', '3 chats', '11 chats', '100 chats']);
    expect(counts('de')).toEqual(['0 Chats', '1 Chat', '2 Chats', '3 Chats', '11 Chats', '100 Chats']);
    // French counts nought in the singular.
    expect(counts('fr').slice(0, 3)).toEqual(['0 discussion', '1 discussion', '2 discussions']);
    // Arabic has six forms; its digits are whatever the runtime's Arabic number format writes.
    const n = (value: number) => new Intl.NumberFormat('ar').format(value);
    expect(counts('ar')).toEqual([
      'لا محادثات',
      'محادثة واحدة',
      'محادثتان',
      `${n(3)} محادثات`,
      `${n(11)} محادثة`,
      `${n(100)} محادثة`,
    ]);
  });
});
