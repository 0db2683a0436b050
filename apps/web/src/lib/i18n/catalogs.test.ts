import { setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { LOCALES, type Locale, SAFETY_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { catalogFiles, messagesIn } from './catalog-files';

// The catalogs: every language has every message of the English one (and no other), each parses as ICU, and the
// plurals follow each language's rules. An area's catalog holds only its own ids (`{area}.…`), so no two files
// can give one id two texts.

const catalogs = Object.fromEntries(LOCALES.map((l) => [l, messagesIn(l)])) as Record<
  Locale,
  Record<string, string>
>;
const en = catalogs.en;

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

  it('keep each area to its own ids, in every language', () => {
    const areas = [...new Set(catalogFiles.map((f) => f.area))];
    for (const area of areas) {
      expect(
        catalogFiles
          .filter((f) => f.area === area)
          .map((f) => f.locale)
          .sort(),
        area || 'core',
      ).toEqual([...LOCALES].sort());
      for (const file of catalogFiles.filter((f) => f.area === area && f.area !== ''))
        for (const id of Object.keys(file.messages))
          expect(id, `${file.area}/${file.locale}`).toMatch(new RegExp(`^${area}\\.`));
    }
    const core = Object.keys(catalogFiles.find((f) => f.area === '' && f.locale === 'en')?.messages ?? {});
    for (const area of areas.filter(Boolean))
      expect(
        core.filter((id) => id.startsWith(`${area}.`)),
        `core ids in the ${area} area's family`,
      ).toEqual([]);
  });

  it('parse as ICU messages with the placeholders of the English one', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();
    for (const locale of LOCALES)
      for (const [id, text] of Object.entries(catalogs[locale])) {
        expect(() => compileMessage(text), `${locale} ${id}`).not.toThrow();
        expect(new Set(placeholders(text)), `${locale} ${id}`).toEqual(new Set(placeholders(en[id] ?? '')));
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
