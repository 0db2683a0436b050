import { describe, expect, it } from 'vitest';
import { EMOJI_DATA_URL, emojiDataFor } from './emoji-data';

describe('the emoji picker’s data for a language', () => {
  it('is the language’s own where emojibase has it, keyed by that language', () => {
    for (const lang of ['de', 'fr', 'es']) {
      const data = emojiDataFor(lang);
      expect(data.locale).toBe(lang);
      expect(data.url).toMatch(new RegExp(`/${lang}/cldr/data\\.json`));
    }
    expect(emojiDataFor('pt-BR')).toMatchObject({ locale: 'pt', url: expect.stringMatching(/\/pt\/cldr\//) });
  });

  it('is English for English, for Arabic (which the data lacks) and for anything unknown', () => {
    for (const lang of ['en', 'ar', '', 'xx-YY'])
      expect(emojiDataFor(lang)).toEqual({ url: EMOJI_DATA_URL, locale: 'en' });
  });
});
